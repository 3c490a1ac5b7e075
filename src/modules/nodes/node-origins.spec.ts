import { originsOf } from 'src/modules/nodes/node-origins';

describe('originsOf', () => {
  it('should give each daemon address its http(s) and ws(s) origin, without duplicates', () => {
    expect(originsOf(['https://wings.example.test:8080', 'http://10.0.0.5:8080', 'https://wings.example.test:8080'])).toEqual([
      'http://10.0.0.5:8080',
      'https://wings.example.test:8080',
      'ws://10.0.0.5:8080',
      'wss://wings.example.test:8080',
    ]);
  });

  it('should leave out a default port, as browsers compare origins', () => {
    expect(originsOf(['https://wings.example.test:443'])).toEqual(['https://wings.example.test', 'wss://wings.example.test']);
  });

  it('should skip what is not an http(s) URL', () => {
    expect(originsOf(['not a url', 'ftp://x:21'])).toEqual([]);
  });
});
