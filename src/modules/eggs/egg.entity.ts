import { Column, CreateDateColumn, Entity, Generated, Index, JoinColumn, ManyToOne, OneToMany, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { EggVariableEntity } from 'src/modules/eggs/egg-variable.entity';
import { NestEntity } from 'src/modules/eggs/nest.entity';

/** One selectable image: PTDL's `docker_images` is a label → image map, kept here in order. */
export interface DockerImage {
  name: string;
  image: string;
}

@Entity({ name: 'egg' })
@Index('UQ_egg_int_id', ['intId'], { unique: true })
@Index('IDX_egg_nest_id', ['nestId'])
export class EggEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_egg' })
  id!: string;

  /** An integer id beside the uuid, for clients that speak Pterodactyl's API (its ids are integers). */
  @Column({ name: 'int_id', type: 'integer' })
  @Generated('increment')
  intId!: number;

  @Column({ name: 'nest_id', type: 'uuid' })
  nestId!: string;

  @ManyToOne(() => NestEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'nest_id', foreignKeyConstraintName: 'FK_egg_nest' })
  nest?: NestEntity;

  @Column({ type: 'varchar', length: 191 })
  author!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  // PTDL distinguishes null from []; both are kept as given.
  @Column({ type: 'jsonb', nullable: true })
  features!: string[] | null;

  @Column({ name: 'docker_image', type: 'text' })
  dockerImage!: string;

  @Column({ name: 'docker_images', type: 'jsonb', default: () => "'[]'" })
  dockerImages!: DockerImage[];

  @Column({ name: 'file_denylist', type: 'jsonb', default: () => "'[]'" })
  fileDenylist!: string[];

  @Column({ type: 'text' })
  startup!: string;

  /** JSON text, kept verbatim so that export gives back the bytes that were imported. */
  @Column({ name: 'config_files', type: 'text', default: '{}' })
  configFiles!: string;

  @Column({ name: 'config_startup', type: 'text', default: '{}' })
  configStartup!: string;

  @Column({ name: 'config_logs', type: 'text', default: '{}' })
  configLogs!: string;

  @Column({ name: 'config_stop', type: 'varchar', length: 191, nullable: true })
  configStop!: string | null;

  @Column({ name: 'script_container', type: 'text', default: 'alpine:3.4' })
  scriptContainer!: string;

  @Column({ name: 'script_entry', type: 'varchar', length: 191, default: 'ash' })
  scriptEntry!: string;

  @Column({ name: 'script_install', type: 'text', nullable: true })
  scriptInstall!: string | null;

  /** Install script (container, entry point, script) comes from this egg instead. */
  @Column({ name: 'copy_script_from', type: 'uuid', nullable: true })
  copyScriptFrom!: string | null;

  @ManyToOne(() => EggEntity, { onDelete: 'RESTRICT', nullable: true })
  @JoinColumn({ name: 'copy_script_from', foreignKeyConstraintName: 'FK_egg_copy_script_from' })
  scriptSource?: EggEntity | null;

  @Column({ name: 'update_url', type: 'text', nullable: true })
  updateUrl!: string | null;

  /** Wings gives each server of this egg its own network so its outgoing traffic leaves from its allocation's IP. */
  @Column({ name: 'force_outgoing_ip', type: 'boolean', default: false })
  forceOutgoingIp!: boolean;

  @OneToMany(() => EggVariableEntity, (v) => v.egg)
  variables?: EggVariableEntity[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
