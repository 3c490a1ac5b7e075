import { copyRow, freezeRow, storeRow } from 'src/common/hot-cache/copy-row';

class Node {
  id = '3';
  name = 'node-1';
}
class Server {
  id = '12';
  name = 'Survival';
  createdAt = new Date(1_000);
  node = new Node();
  config: { files: { path: string }[] } = { files: [{ path: 'server.properties' }] };
}

describe('cached row forms', () => {
  it('storeRow + copyRow: the loader keeps its object, every reader gets its own entities', () => {
    const loaded = new Server();
    const stored = storeRow(loaded);
    loaded.name = 'changed by the loader';
    loaded.node.name = 'changed too';
    const copy = copyRow(stored);
    expect(copy).toBeInstanceOf(Server);
    expect(copy.node).toBeInstanceOf(Node);
    expect([copy.name, copy.node.name]).toEqual(['Survival', 'node-1']);
    copy.node.name = 'changed by a reader';
    expect(copyRow(stored).node.name).toBe('node-1');
    expect(copyRow(stored).config).toBe(stored.config);
    expect(Object.isFrozen(stored.config.files[0])).toBe(true);
  });

  it('freezeRow: one frozen object for everyone, which throws when changed', () => {
    const loaded = new Server();
    const stored = freezeRow(loaded);
    expect(stored).not.toBe(loaded);
    expect(stored).toBeInstanceOf(Server);
    expect(Object.isFrozen(stored) && Object.isFrozen(stored.node) && Object.isFrozen(stored.config.files)).toBe(true);
    expect(() => {
      stored.name = 'x';
    }).toThrow(TypeError);
    expect(() => {
      stored.node.name = 'x';
    }).toThrow(TypeError);
    loaded.name = 'the loader may still change its own';
    expect(stored.name).toBe('Survival');
  });
});
