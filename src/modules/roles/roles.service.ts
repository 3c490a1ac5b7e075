import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { READ_ONLY_AREAS } from 'src/common/auth/admin-scope';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { AppException } from 'src/common/errors/app.exception';
import { AuditService, changedFields } from 'src/modules/audit/audit.service';
import { NodesService } from 'src/modules/nodes/nodes.service';
import { AdminRoleEntity, RolePermission } from 'src/modules/roles/admin-role.entity';
import { AdminRoles } from 'src/modules/roles/admin-roles';
import { AdminRolesRepository } from 'src/modules/roles/admin-roles.repository';
import { CreateRoleDto, RoleDto, toRoleDto, UpdateRoleDto } from 'src/modules/roles/dto/role.dto';
import { RoleError } from 'src/modules/roles/roles.errors';
import { UsersService } from 'src/modules/users/users.service';

const AUDITED = ['name', 'permissions', 'nodeIds', 'allNodes'] as const;

/** The areas in a fixed order, one entry each: what a role stores and answers. */
const normalized = (permissions: readonly RolePermission[]): RolePermission[] => {
  const areas = new Set(permissions.map((p) => p.area));
  if (areas.size !== permissions.length) {
    throw new AppException(RoleError.DUPLICATE_AREA);
  }
  if (permissions.some((p) => READ_ONLY_AREAS.has(p.area) && p.access === 'write')) {
    throw new AppException(RoleError.READ_ONLY_AREA);
  }
  return [...permissions].map(({ area, access }) => ({ area, access })).sort((a, b) => a.area.localeCompare(b.area));
};

/** Administrator roles (docs/permissions.md#administrator-roles): managed by full administrators only, every change audited. */
@Injectable()
export class RolesService {
  constructor(
    private readonly repo: AdminRolesRepository,
    private readonly roles: AdminRoles,
    private readonly users: UsersService,
    private readonly nodes: NodesService,
    private readonly audit: AuditService,
  ) {}

  async list(): Promise<RoleDto[]> {
    const [roles, holders] = await Promise.all([this.repo.findAll(), this.users.countByRole()]);
    return roles.map((r) => toRoleDto(r, holders.get(r.id) ?? 0));
  }

  async get(id: string): Promise<RoleDto> {
    const role = await this.repo.findById(id);
    if (!role) {
      throw new AppException(RoleError.NOT_FOUND);
    }
    return toRoleDto(role, (await this.users.countByRole()).get(role.id) ?? 0);
  }

  async create(dto: CreateRoleDto, actor: Actor): Promise<RoleDto> {
    const permissions = normalized(dto.permissions);
    const created = await this.repo.transaction(async (manager) => {
      await this.checkName(dto.name, null, manager);
      const nodeIds = await this.checkedNodes(dto.nodeIds ?? [], manager);
      const role = await this.repo.save(this.repo.create({ name: dto.name.trim(), permissions, nodeIds, allNodes: nodeIds.length === 0 }), manager);
      await this.audit.record(manager, actor, { action: 'role.created', targetType: 'admin_role', targetId: role.id, changes: { after: pickAudited(role) } });
      return role;
    });
    await this.roles.refresh();
    return toRoleDto(created, 0);
  }

  async update(id: string, dto: UpdateRoleDto, actor: Actor): Promise<RoleDto> {
    const updated = await this.repo.transaction(async (manager) => {
      const role = await this.repo.findForUpdate(id, manager);
      if (!role) {
        throw new AppException(RoleError.NOT_FOUND);
      }
      const before = { ...role };
      if (dto.name !== undefined) {
        await this.checkName(dto.name, role.id, manager);
        role.name = dto.name.trim();
      }
      if (dto.permissions !== undefined) {
        role.permissions = normalized(dto.permissions);
      }
      if (dto.nodeIds !== undefined) {
        role.nodeIds = await this.checkedNodes(dto.nodeIds, manager);
        role.allNodes = role.nodeIds.length === 0;
      }
      const changes = changedFields(pickAudited(before), pickAudited(role), AUDITED);
      if (Object.keys(changes.after).length === 0) {
        return role;
      }
      const saved = await this.repo.save(role, manager);
      await this.audit.record(manager, actor, { action: 'role.updated', targetType: 'admin_role', targetId: role.id, changes });
      return saved;
    });
    await this.roles.refresh();
    return toRoleDto(updated, (await this.users.countByRole()).get(updated.id) ?? 0);
  }

  /** Deletes the role and takes it from everyone holding it, in one transaction with the audit entry (which names them). */
  async delete(id: string, actor: Actor): Promise<void> {
    await this.repo.transaction(async (manager) => {
      const role = await this.repo.findForUpdate(id, manager);
      if (!role) {
        throw new AppException(RoleError.NOT_FOUND);
      }
      const holders = await this.users.removeRole(role.id, manager);
      await this.repo.delete(role.id, manager);
      await this.audit.record(manager, actor, {
        action: 'role.deleted',
        targetType: 'admin_role',
        targetId: role.id,
        changes: { before: { ...pickAudited(role), holders } },
      });
    });
    await this.roles.refresh();
  }

  private async checkName(name: string, except: string | null, manager: EntityManager): Promise<void> {
    const taken = await this.repo.findByName(name.trim(), manager);
    if (taken && taken.id !== except) {
      throw new AppException(RoleError.NAME_TAKEN);
    }
  }

  /** The node ids, each an existing node, without repeats, in order. */
  private async checkedNodes(ids: readonly string[], manager: EntityManager): Promise<string[]> {
    const unique = [...new Set(ids)].sort((a, b) => Number(a) - Number(b));
    const existing = await this.nodes.existingIds(unique, manager);
    const missing = unique.find((id) => !existing.has(id));
    if (missing !== undefined) {
      throw new AppException(RoleError.UNKNOWN_NODE, { message: `No node has the id ${missing}`, details: [{ field: 'nodeIds', message: `unknown node ${missing}` }] });
    }
    return unique;
  }
}

const pickAudited = (role: Pick<AdminRoleEntity, (typeof AUDITED)[number]>) => ({
  name: role.name,
  permissions: role.permissions,
  nodeIds: role.allNodes ? [] : role.nodeIds.map(String),
  allNodes: role.allNodes,
});
