import type { DatabaseCredentials } from '@/features/databases/api';

/** A host as it goes into a URL: an IPv6 address in brackets. */
const urlHost = (host: string): string => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

/** The address a client connects to: `host:port`. */
export const addressOf = (c: Pick<DatabaseCredentials, 'host' | 'port'>): string => `${urlHost(c.host)}:${c.port}`;

/** A MySQL URI (`mysql://user:password@host:port/database`), as most drivers and tools take it. */
export const mysqlUri = (c: DatabaseCredentials): string =>
  `mysql://${encodeURIComponent(c.username)}:${encodeURIComponent(c.password)}@${addressOf(c)}/${encodeURIComponent(c.name)}`;

/** A JDBC URL for Java plugins (MySQL Connector/J and MariaDB Connector/J both read user and password from it). */
export const jdbcUrl = (c: DatabaseCredentials): string =>
  `jdbc:mysql://${addressOf(c)}/${encodeURIComponent(c.name)}?user=${encodeURIComponent(c.username)}&password=${encodeURIComponent(c.password)}`;

/** Who may connect: `%` is anyone, anything else is the address or pattern given. */
export const anySource = (remote: string): boolean => remote === '%';

/** What the panel accepts as a name and a remote (CreateServerDatabaseDto), checked before sending. */
export const DATABASE_NAME = /^[A-Za-z0-9_]+$/;
export const REMOTE = /^[A-Za-z0-9_.%:/-]{1,60}$/;
