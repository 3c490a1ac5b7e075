import 'reflect-metadata';
import { Controller, DynamicModule, Get, Type } from '@nestjs/common';
import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { AppModule } from 'src/app.module';
import { AUTH_METADATA, Authenticated, DAEMON_METADATA, Public, PUBLIC_METADATA } from 'src/common/auth/authenticated.decorator';

type ModuleRef = Type | DynamicModule | Promise<DynamicModule> | undefined;

/** Every controller reachable from a module, through static and dynamic imports. */
const collectControllers = (root: ModuleRef, seen = new Set<unknown>()): Type[] => {
  if (!root || root instanceof Promise || seen.has(root)) {
    return [];
  }
  seen.add(root);
  const isDynamic = typeof root === 'object' && 'module' in root;
  const moduleClass = isDynamic ? root.module : root;
  const meta = <T>(key: string): T[] => (Reflect.getMetadata(key, moduleClass) as T[] | undefined) ?? [];
  const controllers = [...meta<Type>(MODULE_METADATA.CONTROLLERS), ...(isDynamic ? (root.controllers ?? []) : [])];
  const imports = [...meta<ModuleRef>(MODULE_METADATA.IMPORTS), ...(isDynamic ? (root.imports ?? []) : [])];
  return [...controllers, ...imports.flatMap((m) => collectControllers(m as ModuleRef, seen))];
};

const routeHandlers = (controller: Type): { name: string; handler: object }[] => {
  const proto = controller.prototype as Record<string, unknown>;
  return Object.getOwnPropertyNames(proto)
    .filter((name) => name !== 'constructor' && typeof proto[name] === 'function')
    .map((name) => ({ name, handler: proto[name] as object }))
    .filter(({ handler }) => Reflect.getMetadata(METHOD_METADATA, handler) !== undefined && Reflect.getMetadata(PATH_METADATA, handler) !== undefined);
};

/** `Controller.method` of every route handler that declares none of @Public(), @Authenticated() and @DaemonOnly(). */
const undeclaredRoutes = (controllers: Type[]): string[] =>
  controllers.flatMap((controller) =>
    routeHandlers(controller)
      .filter(({ handler }) => {
        const declared = (key: string): boolean =>
          Reflect.getMetadata(key, handler) !== undefined || Reflect.getMetadata(key, controller) !== undefined;
        return !declared(PUBLIC_METADATA) && !declared(AUTH_METADATA) && !declared(DAEMON_METADATA);
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
