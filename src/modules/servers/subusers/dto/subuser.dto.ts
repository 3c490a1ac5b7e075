import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsEmail, IsString, MaxLength } from 'class-validator';
import { MailDeliveryDto } from 'src/modules/mail/dto/mail-delivery.dto';
import { ALL_SERVER_PERMISSIONS } from 'src/modules/servers/server-permissions';
import type { LoadedSubuser } from 'src/modules/servers/subusers/subusers.repository';

export class CreateSubuserDto {
  @ApiProperty({ description: 'E-mail address of the account to add; an address no account uses is invited to create one' })
  @IsEmail()
  @MaxLength(191)
  email!: string;

  @ApiProperty({ type: [String], enum: ALL_SERVER_PERMISSIONS })
  @IsArray()
  @ArrayMaxSize(ALL_SERVER_PERMISSIONS.length * 2)
  @IsString({ each: true })
  permissions!: string[];
}

export class UpdateSubuserDto {
  @ApiProperty({ type: [String], enum: ALL_SERVER_PERMISSIONS })
  @IsArray()
  @ArrayMaxSize(ALL_SERVER_PERMISSIONS.length * 2)
  @IsString({ each: true })
  permissions!: string[];
}

export class SubuserResponseDto {
  /** The subuser's user id: `{user}` in the subuser paths. */
  id!: string;
  uuid!: string;
  username!: string;
  email!: string;
  twoFactorEnabled!: boolean;
  permissions!: string[];
  createdAt!: string;
  updatedAt!: string;
}

/** Whether the e-mail telling the new subuser went out: an invitation to choose a password, or a notice to an existing account. */
export class SubuserEmailDto extends MailDeliveryDto {}

export class CreateSubuserMetaDto {
  email!: SubuserEmailDto;
}

export const toSubuserResponse = (s: LoadedSubuser): SubuserResponseDto => ({
  id: s.userId,
  uuid: s.user.uuid,
  username: s.user.username,
  email: s.user.email,
  twoFactorEnabled: s.user.twoFactorEnabled,
  permissions: [...s.permissions],
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
});
