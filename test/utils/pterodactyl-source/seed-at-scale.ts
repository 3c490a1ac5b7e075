import { randomUUID } from 'node:crypto';
import { Connection, createConnection, RowDataPacket } from 'mysql2/promise';
import { testMySqlAccount } from 'test/setup/mariadb-env';
import { laravelEncrypt } from 'test/utils/laravel-encrypt';
import { bcryptHash, strRandom } from 'test/utils/pterodactyl-source/php';
import { PterodactylTable } from 'test/utils/pterodactyl-source/schema';
import { PterodactylSource } from 'test/utils/pterodactyl-source/source';

/** @public */
export interface SeedAtScaleOptions {
  /** The panel's APP_KEY, under which node tokens and API key secrets are encrypted. */
  appKey: string;
  users: number;
  nodes: number;
  servers: number;
  /** activity_logs rows, each with one activity_log_subjects row. */
  activity: number;
  onProgress?: (message: string) => void;
}

/** The password of every user seedAtScale makes (they share one bcrypt hash). */
const SCALE_USER_PASSWORD = 'bench-password';

const ROWS_PER_STATEMENT = 5_000;
const DAY_MS = 24 * 60 * 60 * 1000;
const VARIABLES = [
  { env: 'SERVER_JARFILE', name: 'Server Jar File', value: 'server.jar', rules: 'required|regex:/^([\\w\\d._-]+)(\\.jar)$/' },
  { env: 'MINECRAFT_VERSION', name: 'Minecraft Version', value: 'latest', rules: 'nullable|string|max:20' },
  { env: 'BUILD_NUMBER', name: 'Build Number', value: 'latest', rules: 'required|string|max:20' },
];

/**
 * Fills `source` with a big panel for the import benchmark, fast: multi-row INSERTs of
 * ROWS_PER_STATEMENT rows (the next statement is built while the server runs the last one) with
 * unique and foreign-key checks off in the session, explicit ids continuing after what the tables
 * already hold (so it also works on a seedPanel()ed source). Makes one location, nest and egg (three
 * variables), `users` users (the first a root admin), `nodes` nodes (encrypted tokens), ten API
 * keys (encrypted secrets), `servers` servers round-robin over the nodes, each with a primary
 * allocation and its three variables (every tenth server an extra allocation; 50 free allocations
 * per node), and `activity` activity rows with one subject each over the last 90 days.
 *
 * Users all share one bcrypt hash of SCALE_USER_PASSWORD: bcrypt at cost 10 takes ~70 ms a hash,
 * so a thousand distinct ones would take over a minute.
 */
export const seedAtScale = async (source: PterodactylSource, options: SeedAtScaleOptions): Promise<void> => {
  const { connection } = source;
  const progress = options.onProgress ?? ((): void => undefined);
  const encrypt = (value: string): string => laravelEncrypt(value, options.appKey);
  const esc = (value: string | null): string => connection.escape(value);
  const nowMs = Math.floor(Date.now() / 1000) * 1000;
  const time = (ms: number): string => `'${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}'`;
  const NOW = time(nowMs);
  const tag = strRandom(6).toLowerCase();

  const nextId = async (table: PterodactylTable): Promise<number> => {
    const [rows] = await connection.query<(RowDataPacket & { max: number | null })[]>(`SELECT MAX(id) AS max FROM ${source.table(table)}`);
    return Number(rows[0].max ?? 0) + 1;
  };
  /** INSERTs `count` rows in statements of ROWS_PER_STATEMENT, building each while the last runs. */
  const bulk = async (table: PterodactylTable, columns: string[], count: number, rowSql: (i: number) => string, via: Connection = connection): Promise<void> => {
    const head = `INSERT INTO ${source.table(table)} (${columns.map((c) => `\`${c}\``).join(', ')}) VALUES `;
    let running: Promise<unknown> | undefined;
    for (let start = 0; start < count; start += ROWS_PER_STATEMENT) {
      const end = Math.min(count, start + ROWS_PER_STATEMENT);
      const values: string[] = new Array<string>(end - start);
      for (let i = start; i < end; i++) {
        values[i - start] = rowSql(i);
      }
      const sql = head + values.join(',');
      await running;
      running = via.query(sql);
      if (count > 100_000 && Math.floor(end / 100_000) > Math.floor(start / 100_000)) {
        progress(`${table}: ${end.toLocaleString('en')} / ${count.toLocaleString('en')}`);
      }
    }
    await running;
  };

  await connection.query('SET SESSION unique_checks = 0, foreign_key_checks = 0');
  try {
    const started = Date.now();
    const ids = {
      location: await nextId('locations'),
      nest: await nextId('nests'),
      egg: await nextId('eggs'),
      variable: await nextId('egg_variables'),
      user: await nextId('users'),
      key: await nextId('api_keys'),
      node: await nextId('nodes'),
      allocation: await nextId('allocations'),
      server: await nextId('servers'),
      serverVariable: await nextId('server_variables'),
      activity: await nextId('activity_logs'),
      subject: await nextId('activity_log_subjects'),
    };

    // Location, nest, egg and its variables.
    await bulk('locations', ['id', 'short', 'long', 'created_at', 'updated_at'], 1, () => `(${ids.location}, 'bench-${tag}', 'Benchmark', ${NOW}, ${NOW})`);
    await bulk('nests', ['id', 'uuid', 'author', 'name', 'description', 'created_at', 'updated_at'], 1, () => `(${ids.nest}, '${randomUUID()}', 'bench@example.com', 'Bench ${tag}', NULL, ${NOW}, ${NOW})`);
    const eggRow = [
      ids.egg,
      esc(randomUUID()),
      ids.nest,
      esc('parker@pterodactyl.io'),
      esc(`Paper (bench ${tag})`),
      esc('High performance Spigot fork.'),
      esc('["eula","java_version","pid_limit"]'),
      esc('{"Java 21":"ghcr.io\\/pterodactyl\\/yolks:java_21","Java 17":"ghcr.io\\/pterodactyl\\/yolks:java_17"}'),
      esc('[]'),
      'NULL',
      esc('{\r\n    "server.properties": {\r\n        "parser": "properties",\r\n        "find": {\r\n            "server-ip": "0.0.0.0",\r\n            "server-port": "{{server.build.default.port}}"\r\n        }\r\n    }\r\n}'),
      esc('{\r\n    "done": ")! For help, type "\r\n}'),
      esc('{}'),
      esc('stop'),
      esc('java -Xms128M -XX:MaxRAMPercentage=95.0 -jar {{SERVER_JARFILE}}'),
      esc('ghcr.io/pterodactyl/installers:alpine'),
      esc('ash'),
      esc('#!/bin/ash\r\ncd /mnt/server\r\ncurl -o ${SERVER_JARFILE} https://example.com/paper.jar'),
      NOW,
      NOW,
    ].join(', ');
    await bulk(
      'eggs',
      ['id', 'uuid', 'nest_id', 'author', 'name', 'description', 'features', 'docker_images', 'file_denylist', 'update_url', 'config_files', 'config_startup', 'config_logs', 'config_stop', 'startup', 'script_container', 'script_entry', 'script_install', 'created_at', 'updated_at'],
      1,
      () => `(${eggRow})`,
    );
    await bulk(
      'egg_variables',
      ['id', 'egg_id', 'name', 'description', 'env_variable', 'default_value', 'user_viewable', 'user_editable', 'rules', 'created_at', 'updated_at'],
      VARIABLES.length,
      (i) => `(${ids.variable + i}, ${ids.egg}, ${esc(VARIABLES[i].name)}, '', '${VARIABLES[i].env}', ${esc(VARIABLES[i].value)}, 1, 1, ${esc(VARIABLES[i].rules)}, ${NOW}, ${NOW})`,
    );

    // Users: one shared hash (see above).
    const passwordHash = esc(await bcryptHash(SCALE_USER_PASSWORD));
    await bulk(
      'users',
      ['id', 'uuid', 'username', 'email', 'name_first', 'name_last', 'password', 'language', 'root_admin', 'use_totp', 'created_at', 'updated_at'],
      options.users,
      (i) =>
        `(${ids.user + i}, '${randomUUID()}', 'bench-${tag}-${i}', 'bench-${tag}-${i}@example.com', 'Bench', 'User ${i}', ${passwordHash}, 'en', ${i === 0 ? 1 : 0}, 0, ${time(nowMs - (i % 700) * DAY_MS)}, ${NOW})`,
    );
    progress(`users: ${options.users} (${Date.now() - started} ms)`);

    // A few API keys: an application key of the admin and client keys of the next users.
    const keyCount = Math.min(10, options.users);
    await bulk(
      'api_keys',
      ['id', 'user_id', 'key_type', 'identifier', 'token', 'allowed_ips', 'memo', 'created_at', 'updated_at', 'r_servers', 'r_nodes', 'r_users'],
      keyCount,
      (i) => `(${ids.key + i}, ${ids.user + i}, ${i === 0 ? 2 : 1}, '${i === 0 ? 'ptla_' : 'ptlc_'}${strRandom(11)}', ${esc(encrypt(strRandom(32)))}, '[]', '', ${NOW}, ${NOW}, ${i === 0 ? '3, 3, 3' : '0, 0, 0'})`,
    );

    // Nodes.
    await bulk(
      'nodes',
      ['id', 'uuid', 'public', 'name', 'location_id', 'fqdn', 'scheme', 'memory', 'disk', 'daemon_token_id', 'daemon_token', 'daemonListen', 'daemonSFTP', 'daemonBase', 'created_at', 'updated_at'],
      options.nodes,
      (i) =>
        `(${ids.node + i}, '${randomUUID()}', 1, 'bench-${tag}-node${i}', ${ids.location}, 'node${i}.${tag}.bench.example.com', 'https', 1048576, 10485760, '${strRandom(16)}', ${esc(encrypt(strRandom(64)))}, 8080, 2022, '/var/lib/pterodactyl/volumes', ${NOW}, ${NOW})`,
    );

    // Allocations: each server's primary (ids in server order), every tenth server's extra, then 50 free per node.
    const extras = Math.floor(options.servers / 10);
    const freePerNode = 50;
    const allocationCount = options.servers + extras + freePerNode * options.nodes;
    const perNodeCounter = new Array<number>(options.nodes).fill(0);
    await bulk('allocations', ['id', 'node_id', 'ip', 'port', 'server_id', 'notes', 'created_at', 'updated_at'], allocationCount, (i) => {
      let nodeIndex: number;
      let serverId: string;
      if (i < options.servers) {
        nodeIndex = i % options.nodes;
        serverId = String(ids.server + i);
      } else if (i < options.servers + extras) {
        const server = (i - options.servers) * 10;
        nodeIndex = server % options.nodes;
        serverId = String(ids.server + server);
      } else {
        nodeIndex = (i - options.servers - extras) % options.nodes;
        serverId = 'NULL';
      }
      const k = perNodeCounter[nodeIndex]++;
      return `(${ids.allocation + i}, ${ids.node + nodeIndex}, '127.0.${Math.floor(k / 40_000)}.1', ${25_565 + (k % 40_000)}, ${serverId}, NULL, ${NOW}, ${NOW})`;
    });
    progress(`allocations: ${allocationCount} (${Date.now() - started} ms)`);

    // Servers and their variables.
    const shortIds = new Set<string>();
    await bulk(
      'servers',
      ['id', 'uuid', 'uuidShort', 'node_id', 'name', 'description', 'owner_id', 'memory', 'swap', 'disk', 'io', 'cpu', 'oom_disabled', 'allocation_id', 'nest_id', 'egg_id', 'startup', 'image', 'allocation_limit', 'database_limit', 'backup_limit', 'created_at', 'updated_at', 'installed_at'],
      options.servers,
      (i) => {
        let uuid = randomUUID();
        while (shortIds.has(uuid.slice(0, 8))) {
          uuid = randomUUID();
        }
        shortIds.add(uuid.slice(0, 8));
        const created = time(nowMs - (i % 365) * DAY_MS);
        return `(${ids.server + i}, '${uuid}', '${uuid.slice(0, 8)}', ${ids.node + (i % options.nodes)}, 'Bench server ${i}', '', ${ids.user + (i % options.users)}, ${1024 * (1 + (i % 8))}, 0, 10240, 500, ${100 * (1 + (i % 4))}, 1, ${ids.allocation + i}, ${ids.nest}, ${ids.egg}, 'java -Xms128M -XX:MaxRAMPercentage=95.0 -jar {{SERVER_JARFILE}}', 'ghcr.io/pterodactyl/yolks:java_21', ${i % 10 === 0 ? 2 : 0}, ${i % 3}, ${i % 5}, ${created}, ${NOW}, ${created})`;
      },
    );
    await bulk('server_variables', ['id', 'server_id', 'variable_id', 'variable_value', 'created_at', 'updated_at'], options.servers * VARIABLES.length, (i) => {
      const server = Math.floor(i / VARIABLES.length);
      const variable = i % VARIABLES.length;
      const value = variable === 1 ? `'1.20.${server % 7}'` : esc(VARIABLES[variable].value);
      return `(${ids.serverVariable + i}, ${ids.server + server}, ${ids.variable + variable}, ${value}, ${NOW}, ${NOW})`;
    });
    progress(`servers: ${options.servers} (${Date.now() - started} ms)`);

    // Activity: a mix of events as the panel writes them, one subject each.
    const events: { event: string; properties: string; subject: 'server' | 'user'; actor: boolean }[] = [
      { event: 'server:power.start', properties: esc('[]'), subject: 'server', actor: true },
      { event: 'server:power.stop', properties: esc('[]'), subject: 'server', actor: true },
      { event: 'server:console.command', properties: esc('{"command":"say hello"}'), subject: 'server', actor: true },
      { event: 'server:file.write', properties: esc('{"file":"\\/server.properties"}'), subject: 'server', actor: true },
      { event: 'server:file.read', properties: esc('{"file":"\\/logs\\/latest.log"}'), subject: 'server', actor: true },
      { event: 'server:backup.complete', properties: esc('{"name":"Nightly"}'), subject: 'server', actor: false },
      { event: 'server:sftp.write', properties: esc('{"files":["\\/plugins\\/a.jar"]}'), subject: 'server', actor: true },
      { event: 'auth:success', properties: esc('{"ip":"10.0.0.1","useragent":"Mozilla\\/5.0"}'), subject: 'user', actor: true },
    ];
    const span = 90 * DAY_MS;
    // Logs and subjects go in side by side, the subjects through a second connection (MariaDB runs
    // each connection's statements on one thread; this machine has two cores).
    const second = await createConnection({ ...testMySqlAccount(), database: source.database, multipleStatements: false, timezone: 'Z' });
    await second.query("SET SESSION time_zone = '+00:00', unique_checks = 0, foreign_key_checks = 0");
    const logs = bulk('activity_logs', ['id', 'event', 'ip', 'actor_type', 'actor_id', 'properties', 'timestamp'], options.activity, (i) => {
      const e = events[i % events.length];
      const actor = e.actor ? `'user', ${ids.user + ((i * 7) % options.users)}` : 'NULL, NULL';
      return `(${ids.activity + i}, '${e.event}', '10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}', ${actor}, ${e.properties}, ${time(nowMs - span + Math.floor((i / options.activity) * span))})`;
    });
    const subjects = bulk(
      'activity_log_subjects',
      ['id', 'activity_log_id', 'subject_type', 'subject_id'],
      options.activity,
      (i) => {
        const e = events[i % events.length];
        const subject = e.subject === 'server' ? ids.server + (i % options.servers) : ids.user + ((i * 7) % options.users);
        return `(${ids.subject + i}, ${ids.activity + i}, '${e.subject}', ${subject})`;
      },
      second,
    );
    try {
      await Promise.all([logs, subjects]);
    } finally {
      await second.end();
    }
    progress(`activity_logs and activity_log_subjects: ${options.activity} each (${Date.now() - started} ms)`);
  } finally {
    await connection.query('SET SESSION unique_checks = 1, foreign_key_checks = 1');
  }
};
