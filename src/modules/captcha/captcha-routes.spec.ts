import 'reflect-metadata';
import { AppModule } from 'src/app.module';
import { CAPTCHA_METADATA } from 'src/modules/captcha/captcha.guard';
import { listRoutes } from 'test/utils/routes';

// POST /api/auth/sign-in/*, /api/auth/sign-up/* and /api/auth/forget-password.
const NEEDS_CAPTCHA = /^POST \/api\/auth\/(?:sign-in\/[^/]+|sign-up\/[^/]+|forget-password)$/;

describe('CAPTCHA route coverage', () => {
  const routes = listRoutes(AppModule);
  const guarded = (handler: object): boolean => Reflect.getMetadata(CAPTCHA_METADATA, handler) === true;

  it('should find the sign-in, sign-up and forget-password routes', () => {
    expect(routes.filter((r) => NEEDS_CAPTCHA.test(r.key)).map((r) => r.key).sort()).toEqual([
      'POST /api/auth/forget-password',
      'POST /api/auth/sign-in/email',
      'POST /api/auth/sign-in/username',
      'POST /api/auth/sign-up/email',
    ]);
  });

  it('should mark every sign-in, sign-up and forget-password route @RequireCaptcha(), and no other', () => {
    const mismatched = routes.filter((r) => NEEDS_CAPTCHA.test(r.key) !== guarded(r.handler)).map((r) => r.key);
    expect(mismatched).toEqual([]);
  });
});
