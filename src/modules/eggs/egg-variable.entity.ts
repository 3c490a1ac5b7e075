import { Column, CreateDateColumn, Entity, Generated, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { EggEntity } from 'src/modules/eggs/egg.entity';

@Entity({ name: 'egg_variable' })
@Index('UQ_egg_variable_int_id', ['intId'], { unique: true })
@Index('UQ_egg_variable_env', ['eggId', 'envVariable'], { unique: true })
export class EggVariableEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_egg_variable' })
  id!: string;

  /** An integer id beside the uuid, for clients that speak Pterodactyl's API (its ids are integers). */
  @Column({ name: 'int_id', type: 'integer' })
  @Generated('increment')
  intId!: number;

  @Column({ name: 'egg_id', type: 'uuid' })
  eggId!: string;

  @ManyToOne(() => EggEntity, (egg) => egg.variables, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'egg_id', foreignKeyConstraintName: 'FK_egg_variable_egg' })
  egg?: EggEntity;

  /** Order of the variables in the egg, as imported or created. */
  @Column({ type: 'integer' })
  position!: number;

  @Column({ type: 'varchar', length: 191 })
  name!: string;

  @Column({ type: 'text', default: '' })
  description!: string;

  @Column({ name: 'env_variable', type: 'varchar', length: 191 })
  envVariable!: string;

  @Column({ name: 'default_value', type: 'text', default: '' })
  defaultValue!: string;

  @Column({ name: 'user_viewable', type: 'boolean', default: false })
  userViewable!: boolean;

  @Column({ name: 'user_editable', type: 'boolean', default: false })
  userEditable!: boolean;

  @Column({ type: 'text', default: '' })
  rules!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
