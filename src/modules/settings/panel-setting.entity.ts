import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One setting an administrator changes at run time (`/api/admin/settings`), by name; the panel's
 * configuration (env) holds everything else. Every process keeps all of them in memory
 * (PanelSettings) and reloads them when this table changes.
 */
@Entity({ name: 'panel_setting' })
export class PanelSettingEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'PK_panel_setting' })
  key!: string;

  /** A setting's value as JSON: every setting so far is a string, number or boolean. */
  @Column({ type: 'jsonb' })
  value!: string | number | boolean;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
