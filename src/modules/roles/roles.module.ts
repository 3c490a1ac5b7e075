import { Module } from '@nestjs/common';
import { AuditModule } from 'src/modules/audit/audit.module';
import { NodesModule } from 'src/modules/nodes/nodes.module';
import { RolesController } from 'src/modules/roles/roles.controller';
import { RolesService } from 'src/modules/roles/roles.service';
import { UsersModule } from 'src/modules/users/users.module';

/** `/api/admin/roles`: administrator roles, for full administrators (docs/permissions.md#administrator-roles). */
@Module({
  imports: [UsersModule, NodesModule, AuditModule],
  controllers: [RolesController],
  providers: [RolesService],
})
export class RolesModule {}
