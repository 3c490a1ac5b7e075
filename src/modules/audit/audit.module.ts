import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditLogCountEntity, AuditLogEntity } from 'src/modules/audit/audit-log.entity';
import { AuditController } from 'src/modules/audit/audit.controller';
import { AuditRepository } from 'src/modules/audit/audit.repository';
import { AuditService } from 'src/modules/audit/audit.service';

@Module({
  imports: [TypeOrmModule.forFeature([AuditLogEntity, AuditLogCountEntity])],
  controllers: [AuditController],
  providers: [AuditService, AuditRepository],
  exports: [AuditService],
})
export class AuditModule {}
