import { Injectable } from '@nestjs/common';
import { AppException } from 'src/common/errors/app.exception';
import { CommonError } from 'src/common/errors/error-codes';
import type { UserEntity } from 'src/modules/users/user.entity';
import { SshKeyResponseDto, toSshKeyResponse } from 'src/modules/ssh-keys/dto/ssh-key.dto';
import { parsePublicKey } from 'src/modules/ssh-keys/ssh-public-key';
import { SshKeyError } from 'src/modules/ssh-keys/ssh-keys.errors';
import { SshKeysRepository } from 'src/modules/ssh-keys/ssh-keys.repository';

const MAX_KEYS = 25;

@Injectable()
export class SshKeysService {
  constructor(private readonly keys: SshKeysRepository) {}

  /** Whether the user holds the key with this fingerprint (SFTP sign-in by key). */
  async holds(userId: string, fingerprint: string): Promise<boolean> {
    return (await this.keys.findOne(userId, fingerprint)) !== null;
  }

  async list(user: UserEntity): Promise<SshKeyResponseDto[]> {
    return (await this.keys.listOf(user.id)).map(toSshKeyResponse);
  }

  async add(user: UserEntity, name: string, line: string): Promise<SshKeyResponseDto> {
    const parsed = parsePublicKey(line);
    if ('error' in parsed) {
      throw new AppException(CommonError.VALIDATION_FAILED, { details: [{ field: 'publicKey', message: `publicKey ${parsed.error}` }] });
    }
    if ((await this.keys.countOf(user.id)) >= MAX_KEYS) {
      throw new AppException(SshKeyError.LIMIT_REACHED);
    }
    const saved = await this.keys.insert({ userId: user.id, name: name.trim(), ...parsed });
    if (!saved) {
      throw new AppException(SshKeyError.EXISTS);
    }
    return toSshKeyResponse(saved);
  }

  /** `{fingerprint}` with or without its `SHA256:` prefix (the path segment is URL-decoded). */
  async remove(user: UserEntity, fingerprint: string): Promise<void> {
    const wanted = fingerprint.startsWith('SHA256:') ? fingerprint : `SHA256:${fingerprint}`;
    const key = await this.keys.findOne(user.id, wanted);
    if (!key) {
      throw new AppException(SshKeyError.NOT_FOUND);
    }
    await this.keys.delete(key.id);
  }
}
