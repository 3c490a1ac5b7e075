import { randomBytes, randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EggEntity } from 'src/modules/eggs/egg.entity';
import { EggVariableEntity } from 'src/modules/eggs/egg-variable.entity';
import { NestEntity } from 'src/modules/eggs/nest.entity';
import { createNodeRow } from 'test/factories/node.factory';
import { ServerEntity } from 'src/modules/servers/server.entity';

const suffix = (): string => randomBytes(4).toString('hex');

/** Inserts a nest straight into the database (no audit entry). */
export const createNest = (app: INestApplication, overrides: Partial<NestEntity> = {}): Promise<NestEntity> => {
  const repo = app.get(DataSource).getRepository(NestEntity);
  return repo.save(repo.create({ name: `Nest ${suffix()}`, description: null, author: 'factory@example.test', ...overrides }));
};

/** Inserts an egg straight into the database (no audit entry), with a script of its own. */
export const createEgg = (app: INestApplication, nestId: string, overrides: Partial<EggEntity> = {}): Promise<EggEntity> => {
  const repo = app.get(DataSource).getRepository(EggEntity);
  const name = `Egg ${suffix()}`;
  return repo.save(
    repo.create({
      nestId,
      name,
      author: 'factory@example.test',
      description: `${name} description`,
      features: ['eula'],
      dockerImage: 'ghcr.io/pterodactyl/yolks:java_21',
      dockerImages: [{ name: 'Java 21', image: 'ghcr.io/pterodactyl/yolks:java_21' }],
      fileDenylist: [],
      startup: 'java -jar {{SERVER_JARFILE}}',
      configFiles: '{}',
      configStartup: '{"done": "Done"}',
      configLogs: '{}',
      configStop: 'stop',
      scriptContainer: 'ghcr.io/pterodactyl/installers:alpine',
      scriptEntry: 'ash',
      scriptInstall: `#!/bin/ash\necho ${name}`,
      copyScriptFrom: null,
      updateUrl: null,
      ...overrides,
    }),
  );
};

/** Inserts a variable of an egg straight into the database (no audit entry). */
export const createEggVariable = (
  app: INestApplication,
  eggId: string,
  overrides: Partial<EggVariableEntity> = {},
): Promise<EggVariableEntity> => {
  const repo = app.get(DataSource).getRepository(EggVariableEntity);
  return repo.save(
    repo.create({
      eggId,
      position: 0,
      name: 'Server Jar File',
      description: 'The jar to run',
      envVariable: `VAR_${suffix().toUpperCase()}`,
      defaultValue: 'server.jar',
      userViewable: true,
      userEditable: true,
      rules: 'required|string|max:20',
      ...overrides,
    }),
  );
};

/** A row of the minimal server table, owned by `ownerId`, that uses the egg. */
export const createServerUsing = async (app: INestApplication, eggId: string, ownerId: string): Promise<ServerEntity> => {
  const { node } = await createNodeRow(app);
  const repo = app.get(DataSource).getRepository(ServerEntity);
  const uuid = randomUUID();
  return repo.save(
    repo.create({
      uuid,
      identifier: uuid.slice(0, 8),
      name: `Server ${suffix()}`,
      ownerId,
      eggId,
      nodeId: node.id,
      startup: 'java -jar server.jar',
      image: 'ghcr.io/pterodactyl/yolks:java_21',
      memory: 1024,
      disk: 4096,
      cpu: 100,
    }),
  );
};
