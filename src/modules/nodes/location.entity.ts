import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'location' })
@Index('UQ_location_short', ['short'], { unique: true })
export class LocationEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_location' })
  id!: string;

  /** Short code, e.g. `fra1`. */
  @Column({ type: 'varchar', length: 60 })
  short!: string;

  @Column({ type: 'text', nullable: true })
  long!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
