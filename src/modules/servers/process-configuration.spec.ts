import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EGG_FIXTURES_DIR, eggFixtureFiles } from 'test/utils/fixtures';
import { buildProcessConfiguration, LegacyServerStructure, resolvePlaceholders, toStop } from 'src/modules/servers/process-configuration';

const structure = (port = 25565): LegacyServerStructure => ({
  uuid: '6f9e64b8-59a5-4c4f-9d5a-3c9b1a9d6a11',
  build: {
    default: { ip: '0.0.0.0', port },
    ports: { '0.0.0.0': [port, port + 1] },
    env: { SERVER_JARFILE: 'server.jar', MAX_PLAYERS: '20' },
    oom_disabled: true,
    memory: 1024,
    swap: 0,
    io: 500,
    cpu: 100,
    threads: null,
    disk: 4096,
    image: 'ghcr.io/pterodactyl/yolks:java_21',
  },
});

const fixtures = eggFixtureFiles();

describe('process configuration', () => {
  (fixtures.includes('egg-paper.json') ? it : it.skip)('should build the Paper egg\'s process configuration for port 25565 as Pterodactyl does', () => {
    const paper = JSON.parse(readFileSync(join(EGG_FIXTURES_DIR, 'egg-paper.json'), 'utf8'));
    const sut = buildProcessConfiguration(
      { configStartup: paper.config.startup, configStop: paper.config.stop, configFiles: paper.config.files },
      structure(25565),
    );
    expect(sut).toEqual(
      JSON.parse(
        '{"startup":{"done":[")! For help, type "],"user_interaction":[],"strip_ansi":false},"stop":{"type":"command","value":"stop"},"configs":[{"parser":"properties","file":"server.properties","replace":[{"match":"server-ip","replace_with":"0.0.0.0"},{"match":"server-port","replace_with":"25565"},{"match":"query.port","replace_with":"25565"}]}]}',
      ),
    );
    // Key order as the panel writes it: the egg's own keys, then file, then replace.
    expect(Object.keys(sut.configs[0])).toEqual(['parser', 'file', 'replace']);
  });

  it.each([
    ['{{server.build.default.port}}', '25570'],
    ['{{server.build.default.ip}}:{{server.build.default.port}}', '0.0.0.0:25570'],
    ['{{env.SERVER_PORT}}', '25570'],
    ['{{server.build.env.SERVER_PORT}}', '25570'],
    ['{{env.SERVER_MEMORY}}', '1024'],
    ['{{env.SERVER_IP}}', '0.0.0.0'],
    ['{{env.MAX_PLAYERS}} players', '20 players'],
    ['{{env.UNKNOWN}}', ''],
    ['{{server.build.memory}}', '1024'],
    ['{{config.docker.interface}}', '{{config.docker.network.interface}}'],
    ['{{config.docker.network.interface}}', '{{config.docker.network.interface}}'],
    ['{{something.else}}', '{{something.else}}'],
    ['no placeholders', 'no placeholders'],
  ])('should resolve %s to %s', (input, expected) => {
    expect(resolvePlaceholders(input, structure(25570))).toBe(expected);
  });

  it('should turn find objects into if_value rules, keep non-string values and skip entries without find', () => {
    const files = JSON.stringify({
      'config.yml': { parser: 'yaml', find: { 'listeners[0].host': '0.0.0.0:{{server.build.default.port}}', online: { 'true': false, 'false': true }, slots: 20 } },
      'broken.json': 'not an object',
      'nofind.ini': { parser: 'ini' },
    });
    const sut = buildProcessConfiguration({ configStartup: '{}', configStop: 'end', configFiles: files }, structure(30000));
    expect(sut.configs).toEqual([
      {
        parser: 'yaml',
        file: 'config.yml',
        replace: [
          { match: 'listeners[0].host', replace_with: '0.0.0.0:30000' },
          { match: 'online', if_value: 'true', replace_with: false },
          { match: 'online', if_value: 'false', replace_with: true },
          { match: 'slots', replace_with: 20 },
        ],
      },
    ]);
    expect(sut.startup).toEqual({ done: [], user_interaction: [], strip_ansi: false });
  });

  it.each([
    ['stop', { type: 'command', value: 'stop' }],
    ['^C', { type: 'signal', value: 'C' }],
    ['^sigint', { type: 'signal', value: 'SIGINT' }],
    [null, { type: 'stop', value: '' }],
  ])('should convert the stop %p', (stop, expected) => {
    expect(toStop(stop)).toEqual(expected);
  });

  (fixtures.length > 0 ? it : it.skip)('should build a configuration Wings can read for every stock egg', () => {
    for (const file of fixtures) {
      const egg = JSON.parse(readFileSync(join(EGG_FIXTURES_DIR, file), 'utf8'));
      const sut = buildProcessConfiguration({ configStartup: egg.config.startup, configStop: egg.config.stop, configFiles: egg.config.files }, structure());
      expect([file, sut.startup.done.length > 0]).toEqual([file, true]);
      for (const config of sut.configs) {
        // Every entry has file, parser and replace, or Wings dereferences nil.
        expect([file, typeof config.file, typeof config.parser, Array.isArray(config.replace)]).toEqual([file, 'string', 'string', true]);
        expect(JSON.stringify(config)).not.toMatch(/{{(server|env)\./);
      }
    }
  });
});
