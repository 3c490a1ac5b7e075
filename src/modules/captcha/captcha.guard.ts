import { applyDecorators, CanActivate, ExecutionContext, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { AppException } from 'src/common/errors/app.exception';
import { headerOf, HttpRequest } from 'src/common/http/http';
import { AppConfigService } from 'src/config/app-config.service';
import { CaptchaError } from 'src/modules/captcha/captcha.errors';
import { CaptchaVerifier } from 'src/modules/captcha/captcha.verifier';

export const CAPTCHA_METADATA = 'hatchery:captcha';
const CAPTCHA_HEADER = 'x-captcha-response';

/** Asks for a solved CAPTCHA in `x-captcha-response` when a provider is configured; otherwise lets everything through. */
@Injectable()
export class CaptchaGuard implements CanActivate {
  constructor(
    private readonly config: AppConfigService,
    private readonly verifier: CaptchaVerifier,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!this.config.captcha) {
      return true;
    }
    const req = context.switchToHttp().getRequest<HttpRequest>();
    const token = headerOf(req, CAPTCHA_HEADER)?.trim();
    if (!token) {
      throw new AppException(CaptchaError.REQUIRED);
    }
    await this.verifier.verify(token, req.ip);
    return true;
  }
}

/**
 * The route needs a solved CAPTCHA (sign-in, sign-up, forget-password). Runs after
 * the global AuthGuard, so an untrusted origin is refused before the provider is called.
 */
export const RequireCaptcha = (): MethodDecorator =>
  applyDecorators(
    SetMetadata(CAPTCHA_METADATA, true),
    UseGuards(CaptchaGuard),
    ApiHeader({
      name: CAPTCHA_HEADER,
      required: false,
      description: 'The solved CAPTCHA token; required when the panel has a CAPTCHA provider configured (GET /api/auth/captcha)',
    }),
  );
