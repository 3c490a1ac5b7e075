import { randomBytes, randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SecretBox } from 'src/common/crypto/secret-box';
import { nodeTokenContext } from 'src/modules/daemon-gateway/daemon.gateway';
import { NodeEntity } from 'src/modules/nodes/node.entity';

interface NodeRow {
  node: NodeEntity;
  /** The plain daemon token. */
  token: string;
}

/** Inserts a node directly (no audit entry, no daemon push), with a sealed random token. */
export const createNodeRow = async (app: INestApplication, overrides: Partial<NodeEntity> = {}): Promise<NodeRow> => {
  const uuid = randomUUID();
  const token = randomBytes(32).toString('hex');
  const fqdn = overrides.fqdn ?? `node-${randomBytes(4).toString('hex')}.example.test`;
  const scheme = overrides.scheme ?? 'https';
  const daemonListen = overrides.daemonListen ?? 8080;
  const repo = app.get(DataSource).getRepository(NodeEntity);
  const node = await repo.save(
    repo.create({
      uuid,
      name: `Node ${fqdn}`,
      description: null,
      memory: 8192,
      disk: 100_000,
      tokenIdentifier: randomBytes(8).toString('hex'),
      ...overrides,
      fqdn,
      scheme,
      daemonListen,
      baseUrl: `${scheme}://${fqdn}:${daemonListen}`,
      tokenSecret: app.get(SecretBox).seal(token, nodeTokenContext({ uuid })),
    }),
  );
  return { node, token };
};
