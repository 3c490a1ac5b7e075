import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { EggVariableEntity } from 'src/modules/eggs/egg-variable.entity';
import { ServerEntity } from 'src/modules/servers/server.entity';

/** A server's value for one egg variable; absent means the variable's default. */
@Entity({ name: 'server_variable' })
@Index('UQ_server_variable', ['serverId', 'variableId'], { unique: true })
export class ServerVariableEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_server_variable' })
  id!: string;

  @Column({ name: 'server_id', type: 'bigint' })
  serverId!: string;

  @ManyToOne(() => ServerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'server_id', foreignKeyConstraintName: 'FK_server_variable_server' })
  server?: ServerEntity;

  @Column({ name: 'variable_id', type: 'uuid' })
  variableId!: string;

  @ManyToOne(() => EggVariableEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'variable_id', foreignKeyConstraintName: 'FK_server_variable_variable' })
  variable?: EggVariableEntity;

  @Column({ type: 'text' })
  value!: string;
}
