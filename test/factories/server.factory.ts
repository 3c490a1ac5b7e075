import { randomBytes, randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EggEntity } from 'src/modules/eggs/egg.entity';
import { AllocationEntity } from 'src/modules/nodes/allocation.entity';
import { NodeEntity } from 'src/modules/nodes/node.entity';
import { ServerEntity } from 'src/modules/servers/server.entity';
import { UserEntity } from 'src/modules/users/user.entity';

let nextPort = 30_000 + Math.floor(Math.random() * 20_000);

/** Inserts a free allocation on a node (no audit entry); the port is unique per test run unless given. */
export const createAllocationRow = (
  app: INestApplication,
  node: Pick<NodeEntity, 'id'>,
  overrides: Partial<AllocationEntity> = {},
): Promise<AllocationEntity> => {
  const repo = app.get(DataSource).getRepository(AllocationEntity);
  return repo.save(repo.create({ nodeId: node.id, ip: '0.0.0.0', port: nextPort++, alias: null, notes: null, serverId: null, ...overrides }));
};

interface ServerRowOptions {
  node: Pick<NodeEntity, 'id'>;
  egg: Pick<EggEntity, 'id'>;
  owner: Pick<UserEntity, 'id'>;
  /** Becomes the primary allocation (assigned to the server). */
  allocation?: Pick<AllocationEntity, 'id'>;
  overrides?: Partial<ServerEntity>;
}

/**
 * Inserts a server straight into the database: no daemon call, no audit entry, no variables.
 * It is installed (status null, installedAt set) unless `overrides` say otherwise.
 */
export const createServerRow = async (app: INestApplication, { node, egg, owner, allocation, overrides = {} }: ServerRowOptions): Promise<ServerEntity> => {
  const dataSource = app.get(DataSource);
  const repo = dataSource.getRepository(ServerEntity);
  const uuid = overrides.uuid ?? randomUUID();
  const server = await repo.save(
    repo.create({
      uuid,
      identifier: uuid.slice(0, 8),
      name: `Server ${randomBytes(4).toString('hex')}`,
      description: null,
      status: null,
      suspended: false,
      ownerId: owner.id,
      nodeId: node.id,
      eggId: egg.id,
      allocationId: allocation?.id ?? null,
      startup: 'java -Xms128M -jar server.jar',
      image: 'ghcr.io/pterodactyl/yolks:java_21',
      memory: 1024,
      disk: 4096,
      cpu: 100,
      installedAt: new Date(),
      ...overrides,
    }),
  );
  if (allocation) {
    await dataSource.getRepository(AllocationEntity).update({ id: allocation.id }, { serverId: server.id });
  }
  return server;
};
