import { Module } from '@nestjs/common';
import { CaptchaController } from 'src/modules/captcha/captcha.controller';
import { CaptchaGuard } from 'src/modules/captcha/captcha.guard';
import { CaptchaVerifier } from 'src/modules/captcha/captcha.verifier';

/** CAPTCHA checks for the anonymous auth routes; modules with such routes import it and mark them @RequireCaptcha(). */
@Module({
  controllers: [CaptchaController],
  providers: [CaptchaVerifier, CaptchaGuard],
  exports: [CaptchaVerifier, CaptchaGuard],
})
export class CaptchaModule {}
