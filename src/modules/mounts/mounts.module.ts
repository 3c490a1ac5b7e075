import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from 'src/modules/audit/audit.module';
import { EggMountEntity, MountEntity, MountNodeEntity, MountServerEntity } from 'src/modules/mounts/mount.entity';
import { MountsController } from 'src/modules/mounts/mounts.controller';
import { MountsRepository } from 'src/modules/mounts/mounts.repository';
import { MountsService } from 'src/modules/mounts/mounts.service';

/**
 * Mounts and their links to eggs, nodes and servers. It depends on no other feature module, so
 * that nodes (allowed_mounts) and servers (configuration, attach) can use it; the rows it links
 * are reached along the link tables' foreign keys.
 */
@Module({
  imports: [TypeOrmModule.forFeature([MountEntity, EggMountEntity, MountNodeEntity, MountServerEntity]), AuditModule],
  controllers: [MountsController],
  providers: [MountsRepository, MountsService],
  exports: [MountsService],
})
export class MountsModule {}
