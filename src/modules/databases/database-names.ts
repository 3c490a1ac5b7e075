import { randomString, URL_SAFE_ALPHABET } from 'src/common/crypto/tokens';

/** MySQL 5.7+/8 user names hold at most 32 characters (MariaDB allows more; we keep to the smaller). */
export const MAX_USERNAME_LENGTH = 32;
/** MySQL and MariaDB database names hold at most 64 characters. */
export const MAX_DATABASE_LENGTH = 64;

/**
 * What a customer may call a database: letters, digits and underscores. Those need no quoting in
 * client configs or JDBC URLs, and the names the panel derives from them stay plain identifiers.
 */
export const DATABASE_NAME = /^[A-Za-z0-9_]+$/;

/**
 * A MySQL account host part: an IP, a host name, `%` (any source), a pattern such as `192.168.%`,
 * an IPv6 address or an `ip/netmask`. The same characters Pterodactyl accepts; 60 fits every version.
 */
export const REMOTE = /^[A-Za-z0-9_.%:/-]{1,60}$/;

export const databaseNameOf = (serverId: string, name: string): string => `s${serverId}_${name}`;
export const usernameOf = (serverId: string, name: string): string => `u${serverId}_${name}`;

/**
 * The longest name a server may use, so that both `u{id}_{name}` (32) and `s{id}_{name}` (64)
 * fit. The API promises both forms (docs/api.md#databases), so a name that is too long is refused rather than cut
 * (Pterodactyl truncates and adds a random suffix, which would break that rule).
 */
export const maxNameLength = (serverId: string): number =>
  Math.min(MAX_USERNAME_LENGTH - usernameOf(serverId, '').length, MAX_DATABASE_LENGTH - databaseNameOf(serverId, '').length);

const PASSWORD_LENGTH = 32;

/**
 * A 32-character password from the URL-safe alphabet (~190 bits), with at least one lower-case
 * letter, upper-case letter, digit and symbol so that hosts running validate_password accept it.
 * Drawing again until all four are present keeps the choice uniform over the passwords allowed.
 * No quote, backslash, `@`, `:` or `/`: it can be pasted into a config file or a connection URL.
 */
export const generateDatabasePassword = (): string => {
  for (;;) {
    const candidate = randomString(PASSWORD_LENGTH, URL_SAFE_ALPHABET);
    if (/[a-z]/.test(candidate) && /[A-Z]/.test(candidate) && /\d/.test(candidate) && /[-_]/.test(candidate)) {
      return candidate;
    }
  }
};

/** A backtick-quoted identifier (database name) with any backtick doubled. */
export const quoteIdentifier = (name: string): string => `\`${name.replace(/`/g, '``')}\``;

/**
 * A database name as a GRANT target. GRANT reads `_` and `%` in a database name as wildcards, so
 * `s1_1_ab` unescaped would also cover server 121's `s121_ab`; each is escaped with a backslash.
 */
export const grantDatabasePattern = (database: string): string => quoteIdentifier(database.replace(/[\\_%]/g, (c) => `\\${c}`));
