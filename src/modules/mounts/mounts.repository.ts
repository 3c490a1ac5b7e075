import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, EntityManager, In, Repository } from 'typeorm';
import { pageWithTotal } from 'src/database/page-with-total';
import { containsPattern } from 'src/database/like';
import { violations } from 'src/database/pg-errors';
import { EggError } from 'src/modules/eggs/eggs.errors';
import { EggMountEntity, MountEntity, MountNodeEntity, MountServerEntity } from 'src/modules/mounts/mount.entity';
import { MountError } from 'src/modules/mounts/mounts.errors';
import { NodeError } from 'src/modules/nodes/nodes.errors';

/** A mount in a server's Wings configuration. */
export interface ConfiguredMount {
  source: string;
  target: string;
  read_only: boolean;
}

/** A mount as a server sees it: attached or not, and whether its egg and node are linked to it. */
export interface ServerMountRow {
  mount: MountEntity;
  attached: boolean;
  eggLinked: boolean;
  nodeLinked: boolean;
}

/** What a mount is linked and attached to, named. */
interface MountLinks {
  eggs: { id: string; name: string }[];
  nodes: { id: string; name: string; daemonBase: string }[];
  servers: { id: string; uuid: string; name: string }[];
}

@Injectable()
export class MountsRepository {
  constructor(@InjectRepository(MountEntity) private readonly mounts: Repository<MountEntity>) {}

  transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.mounts.manager.transaction(fn);
  }

  findPage(skip: number, take: number, search?: string): Promise<[MountEntity[], number]> {
    const query = this.mounts.createQueryBuilder('m').orderBy('m.id', 'ASC');
    if (search) {
      const pattern = containsPattern(search.toLowerCase());
      query.where(
        new Brackets((w) => {
          w.where('LOWER(m.name) LIKE :pattern', { pattern }).orWhere('LOWER(m.source) LIKE :pattern').orWhere('LOWER(m.target) LIKE :pattern');
        }),
      );
    }
    return pageWithTotal(query, skip, take);
  }

  find(id: string, manager: EntityManager = this.mounts.manager): Promise<MountEntity | null> {
    return manager.getRepository(MountEntity).findOneBy({ id });
  }

  /** The mount row, locked until the transaction ends. */
  lock(id: string, manager: EntityManager): Promise<MountEntity | null> {
    return manager.getRepository(MountEntity).createQueryBuilder('m').setLock('pessimistic_write').where({ id }).getOne();
  }

  save(mount: Partial<MountEntity>, manager: EntityManager): Promise<MountEntity> {
    const repo = manager.getRepository(MountEntity);
    return repo.save(repo.create(mount)).catch(violations({ UQ_mount_name: MountError.NAME_TAKEN }));
  }

  async delete(id: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(MountEntity).delete({ id });
  }

  /** Links the eggs (those already linked are kept); an egg that does not exist is a 404. */
  async linkEggs(mountId: string, eggIds: string[], manager: EntityManager): Promise<void> {
    await manager
      .createQueryBuilder()
      .insert()
      .into(EggMountEntity)
      .values(eggIds.map((eggId) => ({ eggId, mountId })))
      .orIgnore()
      .execute()
      .catch(violations({ FK_egg_mount_egg: EggError.NOT_FOUND }));
  }

  /** Whether the link existed. */
  async unlinkEgg(mountId: string, eggId: string, manager: EntityManager): Promise<boolean> {
    return ((await manager.getRepository(EggMountEntity).delete({ mountId, eggId })).affected ?? 0) > 0;
  }

  /** Links the nodes (those already linked are kept); a node that does not exist is a 404. */
  async linkNodes(mountId: string, nodeIds: string[], manager: EntityManager): Promise<void> {
    await manager
      .createQueryBuilder()
      .insert()
      .into(MountNodeEntity)
      .values(nodeIds.map((nodeId) => ({ nodeId, mountId })))
      .orIgnore()
      .execute()
      .catch(violations({ FK_mount_node_node: NodeError.NOT_FOUND }));
  }

  async unlinkNode(mountId: string, nodeId: string, manager: EntityManager): Promise<boolean> {
    return ((await manager.getRepository(MountNodeEntity).delete({ mountId, nodeId })).affected ?? 0) > 0;
  }

  /** The eggs, nodes and servers of a mount, by name. */
  async linksOf(mountId: string, manager: EntityManager = this.mounts.manager): Promise<MountLinks> {
    const eggs = await manager
      .getRepository(EggMountEntity)
      .createQueryBuilder('l')
      .innerJoinAndSelect('l.egg', 'egg')
      .where('l.mount_id = :mountId', { mountId })
      .orderBy('egg.name', 'ASC')
      .addOrderBy('egg.id', 'ASC')
      .getMany();
    const nodes = await manager
      .getRepository(MountNodeEntity)
      .createQueryBuilder('l')
      .innerJoinAndSelect('l.node', 'node')
      .where('l.mount_id = :mountId', { mountId })
      .orderBy('node.id', 'ASC')
      .getMany();
    const servers = await manager
      .getRepository(MountServerEntity)
      .createQueryBuilder('l')
      .innerJoinAndSelect('l.server', 'server')
      .where('l.mount_id = :mountId', { mountId })
      .orderBy('server.id', 'ASC')
      .getMany();
    return {
      eggs: eggs.map((l) => ({ id: l.eggId, name: l.egg!.name })),
      nodes: nodes.map((l) => ({ id: l.nodeId, name: l.node!.name, daemonBase: l.node!.daemonBase })),
      servers: servers.map((l) => ({ id: l.serverId, uuid: l.server!.uuid, name: l.server!.name })),
    };
  }

  countServers(mountId: string, manager: EntityManager): Promise<number> {
    return manager.getRepository(MountServerEntity).countBy({ mountId });
  }

  /** Attaches the mount to the server; attaching twice is a no-op. Whether it was new. */
  async attach(mountId: string, serverId: string, manager: EntityManager): Promise<boolean> {
    if (await manager.getRepository(MountServerEntity).existsBy({ mountId, serverId })) {
      return false;
    }
    await manager.createQueryBuilder().insert().into(MountServerEntity).values({ mountId, serverId }).orIgnore().execute();
    return true;
  }

  /** Whether it was attached. */
  async detach(mountId: string, serverId: string, manager: EntityManager): Promise<boolean> {
    return ((await manager.getRepository(MountServerEntity).delete({ mountId, serverId })).affected ?? 0) > 0;
  }

  /** Whether the mount is linked to this egg and to this node. */
  async linkState(mountId: string, eggId: string, nodeId: string, manager: EntityManager): Promise<{ eggLinked: boolean; nodeLinked: boolean }> {
    return {
      eggLinked: await manager.getRepository(EggMountEntity).existsBy({ mountId, eggId }),
      nodeLinked: await manager.getRepository(MountNodeEntity).existsBy({ mountId, nodeId }),
    };
  }

  /** Mounts attached to the server, or linked to both its egg and its node, by name. */
  async forServer(serverId: string, eggId: string, nodeId: string, manager: EntityManager = this.mounts.manager): Promise<ServerMountRow[]> {
    const rows = await manager
      .getRepository(MountEntity)
      .createQueryBuilder('m')
      .leftJoin(MountServerEntity, 'ms', 'ms.mount_id = m.id AND ms.server_id = :serverId', { serverId })
      .leftJoin(EggMountEntity, 'em', 'em.mount_id = m.id AND em.egg_id = :eggId', { eggId })
      .leftJoin(MountNodeEntity, 'mn', 'mn.mount_id = m.id AND mn.node_id = :nodeId', { nodeId })
      .addSelect('ms.server_id IS NOT NULL', 'attached')
      .addSelect('em.egg_id IS NOT NULL', 'egg_linked')
      .addSelect('mn.node_id IS NOT NULL', 'node_linked')
      .where('ms.server_id IS NOT NULL OR (em.egg_id IS NOT NULL AND mn.node_id IS NOT NULL)')
      .orderBy('m.name', 'ASC')
      .addOrderBy('m.id', 'ASC')
      .getRawAndEntities();
    return rows.entities.map((mount, i) => {
      const raw = rows.raw[i] as { attached: boolean; egg_linked: boolean; node_linked: boolean };
      return { mount, attached: raw.attached, eggLinked: raw.egg_linked, nodeLinked: raw.node_linked };
    });
  }

  /**
   * The mounts of each server's Wings configuration: those attached to it that are still linked to
   * its node, in the order they were created. Servers without any are absent.
   */
  async configuredFor(serverIds: string[], manager: EntityManager = this.mounts.manager): Promise<Map<string, ConfiguredMount[]>> {
    if (serverIds.length === 0) {
      return new Map();
    }
    const rows: { serverId: string; source: string; target: string; readOnly: boolean }[] = await manager
      .getRepository(MountServerEntity)
      .createQueryBuilder('ms')
      .innerJoin('ms.mount', 'm')
      .innerJoin('ms.server', 's')
      .innerJoin(MountNodeEntity, 'mn', 'mn.mount_id = ms.mount_id AND mn.node_id = s.node_id')
      .select('ms.server_id', 'serverId')
      .addSelect('m.source', 'source')
      .addSelect('m.target', 'target')
      .addSelect('m.read_only', 'readOnly')
      .where({ serverId: In(serverIds) })
      .orderBy('ms.server_id', 'ASC')
      .addOrderBy('m.id', 'ASC')
      .getRawMany();
    const byServer = new Map<string, ConfiguredMount[]>();
    for (const r of rows) {
      const list = byServer.get(String(r.serverId)) ?? [];
      list.push({ source: r.source, target: r.target, read_only: r.readOnly });
      byServer.set(String(r.serverId), list);
    }
    return byServer;
  }

  /** The sources of the mounts linked to the node: its config.yml's allowed_mounts. */
  async sourcesForNode(nodeId: string, manager: EntityManager = this.mounts.manager): Promise<string[]> {
    const rows: { source: string }[] = await manager
      .getRepository(MountNodeEntity)
      .createQueryBuilder('mn')
      .innerJoin('mn.mount', 'm')
      .select('m.source', 'source')
      .where({ nodeId })
      .orderBy('m.id', 'ASC')
      .getRawMany();
    return [...new Set(rows.map((r) => r.source))];
  }
}
