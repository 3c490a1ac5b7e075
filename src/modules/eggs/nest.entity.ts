import { Column, CreateDateColumn, Entity, Generated, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'nest' })
@Index('UQ_nest_int_id', ['intId'], { unique: true })
export class NestEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_nest' })
  id!: string;

  /** An integer id beside the uuid, for clients that speak Pterodactyl's API (its ids are integers). */
  @Column({ name: 'int_id', type: 'integer' })
  @Generated('increment')
  intId!: number;

  @Column({ type: 'varchar', length: 191 })
  name!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ type: 'varchar', length: 191 })
  author!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
