import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { AdminAccess, AdminArea } from 'src/common/auth/admin-scope';

/** One part of the administration a role grants. */
export interface RolePermission {
  area: AdminArea;
  access: AdminAccess;
}

/**
 * An administrator role (docs/permissions.md#administrator-roles): parts of the administration, each
 * read or read and write, optionally limited to some nodes. Users hold roles by id
 * (`user.admin_role_ids`); every process keeps all roles in memory (AdminRoles).
 */
@Entity({ name: 'admin_role' })
@Index('UQ_admin_role_name', ['name'], { unique: true })
export class AdminRoleEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_admin_role' })
  id!: string;

  @Column({ type: 'varchar', length: 64 })
  name!: string;

  @Column({ type: 'jsonb' })
  permissions!: RolePermission[];

  /**
   * Limited to these nodes' servers and allocations when `allNodes` is false. A deleted node leaves
   * its id here: the role then reaches nothing of it, and never, by losing its last node, every node.
   */
  @Column({ name: 'node_ids', type: 'bigint', array: true, default: () => "'{}'" })
  nodeIds!: string[];

  @Column({ name: 'all_nodes', type: 'boolean', default: true })
  allNodes!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
