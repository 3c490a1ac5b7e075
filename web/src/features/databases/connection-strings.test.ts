import { describe, expect, it } from 'vitest';
import { addressOf, anySource, DATABASE_NAME, jdbcUrl, mysqlUri, REMOTE } from '@/features/databases/connection-strings';

const creds = { name: 's3_main', username: 'u3_main', host: 'db.example.test', port: 3306, password: 'Ab-3_xY' };

describe('connection strings', () => {
  it('should write a MySQL URI and a JDBC URL with the database, user and password', () => {
    expect(mysqlUri(creds)).toBe('mysql://u3_main:Ab-3_xY@db.example.test:3306/s3_main');
    expect(jdbcUrl(creds)).toBe('jdbc:mysql://db.example.test:3306/s3_main?user=u3_main&password=Ab-3_xY');
  });

  it('should put an IPv6 host in brackets and escape what a URL cannot carry', () => {
    expect(addressOf({ host: '::1', port: 3307 })).toBe('[::1]:3307');
    expect(addressOf({ host: '127.0.0.1', port: 3306 })).toBe('127.0.0.1:3306');
    expect(mysqlUri({ ...creds, host: 'fd00::5', password: 'a@b/c:d' })).toBe('mysql://u3_main:a%40b%2Fc%3Ad@[fd00::5]:3306/s3_main');
  });

  it('should check names and remotes as the panel does', () => {
    expect(DATABASE_NAME.test('main_1')).toBe(true);
    expect(DATABASE_NAME.test('main-1')).toBe(false);
    expect(DATABASE_NAME.test('')).toBe(false);
    expect(REMOTE.test('%')).toBe(true);
    expect(REMOTE.test('192.168.%')).toBe(true);
    expect(REMOTE.test('a b')).toBe(false);
    expect(anySource('%')).toBe(true);
    expect(anySource('10.0.0.1')).toBe(false);
  });
});
