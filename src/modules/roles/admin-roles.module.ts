import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AdminRoleEntity } from 'src/modules/roles/admin-role.entity';
import { AdminRoles } from 'src/modules/roles/admin-roles';
import { AdminRolesRepository } from 'src/modules/roles/admin-roles.repository';

/**
 * The roles every request's grants are read from (AdminRoles), for the auth guard, API keys, users
 * and the Pterodactyl layer. Global and importing nothing of the panel's, so that each can use it
 * without a cycle; RolesModule holds the routes that change them.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([AdminRoleEntity])],
  providers: [AdminRoles, AdminRolesRepository],
  exports: [AdminRoles, AdminRolesRepository],
})
export class AdminRolesModule {}
