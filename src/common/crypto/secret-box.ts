import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfigService } from 'src/config/app-config.service';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Encrypts secrets kept in the database (node tokens, database-host passwords) with AES-256-GCM.
 * The key is derived from APP_KEY with HKDF-SHA256, so APP_KEY itself never touches a cipher.
 * Stored form: `v1:<iv>:<tag>:<ciphertext>` (base64url parts).
 */
@Injectable()
export class SecretBox {
  private readonly key: Buffer;

  constructor(config: AppConfigService) {
    this.key = Buffer.from(hkdfSync('sha256', config.auth.appKey, 'hatchery', 'secret-box:aes-256-gcm:v1', 32));
  }

  seal(plain: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    // The context (e.g. `node:12:token`) is authenticated: a sealed value cannot be moved to another row.
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(':');
  }

  open(sealed: string, context: string): string {
    const [version, iv, tag, body] = sealed.split(':');
    if (version !== VERSION || !iv || !tag || body === undefined) {
      throw new Error('Sealed secret has an unknown format');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}
