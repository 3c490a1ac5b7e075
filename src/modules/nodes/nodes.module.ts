import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MountsModule } from 'src/modules/mounts/mounts.module';
import { AuditModule } from 'src/modules/audit/audit.module';
import { AllocationEntity } from 'src/modules/nodes/allocation.entity';
import { AllocationsController } from 'src/modules/nodes/allocations.controller';
import { AllocationsService } from 'src/modules/nodes/allocations.service';
import { DaemonNodes } from 'src/modules/nodes/daemon-nodes';
import { DaemonConfigurationController } from 'src/modules/nodes/daemon-configuration.controller';
import { DaemonSystemController } from 'src/modules/nodes/daemon-system.controller';
import { LocationEntity } from 'src/modules/nodes/location.entity';
import { LocationsController } from 'src/modules/nodes/locations.controller';
import { LocationsService } from 'src/modules/nodes/locations.service';
import { NodeEntity } from 'src/modules/nodes/node.entity';
import { NodeOrigins } from 'src/modules/nodes/node-origins';
import { NodesController } from 'src/modules/nodes/nodes.controller';
import { NodesRepository } from 'src/modules/nodes/nodes.repository';
import { NodesService } from 'src/modules/nodes/nodes.service';
import { ServerAllocations } from 'src/modules/nodes/server-allocations';

@Module({
  imports: [TypeOrmModule.forFeature([LocationEntity, NodeEntity, AllocationEntity]), AuditModule, MountsModule],
  controllers: [LocationsController, NodesController, AllocationsController, DaemonConfigurationController, DaemonSystemController],
  providers: [NodesRepository, LocationsService, NodesService, AllocationsService, ServerAllocations, NodeOrigins, DaemonNodes],
  exports: [NodesService, LocationsService, AllocationsService, ServerAllocations, NodeOrigins, DaemonNodes],
})
export class NodesModule {}
