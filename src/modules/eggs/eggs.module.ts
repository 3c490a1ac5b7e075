import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { outboundPolicyProvider } from 'src/common/http/outbound-policy.provider';
import { AuditModule } from 'src/modules/audit/audit.module';
import { EggGalleryService } from 'src/modules/eggs/egg-gallery.service';
import { EggTransferService } from 'src/modules/eggs/egg-transfer.service';
import { EggUpdateService } from 'src/modules/eggs/egg-update.service';
import { EggVariableEntity } from 'src/modules/eggs/egg-variable.entity';
import { EggVariablesController } from 'src/modules/eggs/egg-variables.controller';
import { EggVariablesService } from 'src/modules/eggs/egg-variables.service';
import { EggEntity } from 'src/modules/eggs/egg.entity';
import { EggsController } from 'src/modules/eggs/eggs.controller';
import { EggsRepository } from 'src/modules/eggs/eggs.repository';
import { EggsService } from 'src/modules/eggs/eggs.service';
import { NestEntity } from 'src/modules/eggs/nest.entity';
import { NestsController } from 'src/modules/eggs/nests.controller';
import { NestsService } from 'src/modules/eggs/nests.service';

@Module({
  imports: [TypeOrmModule.forFeature([NestEntity, EggEntity, EggVariableEntity]), AuditModule],
  controllers: [NestsController, EggsController, EggVariablesController],
  providers: [
    EggsRepository,
    NestsService,
    EggsService,
    EggVariablesService,
    EggTransferService,
    EggGalleryService,
    EggUpdateService,
    // Outbound requests never reach private addresses unless OUTBOUND_ALLOW_PRIVATE (not in production).
    outboundPolicyProvider,
  ],
  exports: [EggsService],
})
export class EggsModule {}
