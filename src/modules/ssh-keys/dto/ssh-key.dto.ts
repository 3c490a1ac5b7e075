import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import type { SshKeyEntity } from 'src/modules/ssh-keys/ssh-key.entity';

export class CreateSshKeyDto {
  @ApiProperty({ example: 'laptop' })
  @IsString()
  @MinLength(1)
  @MaxLength(191)
  name!: string;

  @ApiProperty({ example: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA... me@laptop' })
  @IsString()
  @MaxLength(16_384)
  publicKey!: string;
}

export class SshKeyResponseDto {
  name!: string;
  fingerprint!: string;
  publicKey!: string;
  createdAt!: string;
}

export const toSshKeyResponse = (k: SshKeyEntity): SshKeyResponseDto => ({
  name: k.name,
  fingerprint: k.fingerprint,
  publicKey: k.publicKey,
  createdAt: k.createdAt.toISOString(),
});
