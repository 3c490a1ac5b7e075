import 'reflect-metadata';
import { Controller, Get, Type } from '@nestjs/common';
import { AppModule } from 'src/app.module';
import { AUTH_METADATA, Authenticated, DAEMON_METADATA, Public, PTERODACTYL_METADATA, PUBLIC_METADATA } from 'src/common/auth/authenticated.decorator';
import { collectControllers, routeHandlers } from 'test/utils/routes';

/** `Controller.method` of every route handler that declares none of @Public(), @Authenticated(), @DaemonOnly() and @PterodactylOnly(). */
const undeclaredRoutes = (controllers: Type[]): string[] =>
  controllers.flatMap((controller) =>
    routeHandlers(controller)
      .filter(({ handler }) => {
        const declared = (key: string): boolean =>
          Reflect.getMetadata(key, handler) !== undefined || Reflect.getMetadata(key, controller) !== undefined;
        return !declared(PUBLIC_METADATA) && !declared(AUTH_METADATA) && !declared(DAEMON_METADATA) && !declared(PTERODACTYL_METADATA);
      })
      .map(({ name }) => `${controller.name}.${name}`),
  );

describe('route declarations', () => {
  const controllers = [...new Set(collectControllers(AppModule))];

  it('should find the controllers of the app', () => {
    expect(controllers.map((c) => c.name)).toEqual(
      expect.arrayContaining(['AuthController', 'UsersController', 'ApiKeysController', 'SessionsController', 'AccountController', 'HealthController']),
    );
  });

  it('should have every route declare @Public() or @Authenticated()', () => {
    expect(undeclaredRoutes(controllers)).toEqual([]);
  });

  it('should report a route that declares nothing, and accept class-level declarations', () => {
    @Controller('x')
    class Mixed {
      @Get('open')
      @Public()
      open(): void {}

      @Get('closed')
      @Authenticated()
      closed(): void {}

      @Get('forgotten')
      forgotten(): void {}

      helper(): void {}
    }
    @Controller('y')
    @Authenticated({ sessionOnly: true })
    class ClassLevel {
      @Get()
      list(): void {}
    }
    expect(undeclaredRoutes([Mixed, ClassLevel])).toEqual(['Mixed.forgotten']);
  });
});
