import 'reflect-metadata';
import { DynamicModule, RequestMethod, Type } from '@nestjs/common';
import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';

type ModuleRef = Type | DynamicModule | Promise<DynamicModule> | undefined;

/** Every controller reachable from a module, through static and dynamic imports. */
export const collectControllers = (root: ModuleRef, seen = new Set<unknown>()): Type[] => {
  if (!root || root instanceof Promise || seen.has(root)) {
    return [];
  }
  seen.add(root);
  const isDynamic = typeof root === 'object' && 'module' in root;
  const moduleClass = isDynamic ? root.module : root;
  const meta = <T>(key: string): T[] => (Reflect.getMetadata(key, moduleClass) as T[] | undefined) ?? [];
  const controllers = [...meta<Type>(MODULE_METADATA.CONTROLLERS), ...(isDynamic ? (root.controllers ?? []) : [])];
  const imports = [...meta<ModuleRef>(MODULE_METADATA.IMPORTS), ...(isDynamic ? (root.imports ?? []) : [])];
  return [...new Set([...controllers, ...imports.flatMap((m) => collectControllers(m as ModuleRef, seen))])];
};

export const routeHandlers = (controller: Type): { name: string; handler: object }[] => {
  const proto = controller.prototype as Record<string, unknown>;
  return Object.getOwnPropertyNames(proto)
    .filter((name) => name !== 'constructor' && typeof proto[name] === 'function')
    .map((name) => ({ name, handler: proto[name] as object }))
    .filter(({ handler }) => Reflect.getMetadata(METHOD_METADATA, handler) !== undefined && Reflect.getMetadata(PATH_METADATA, handler) !== undefined);
};

export interface RouteInfo {
  /** e.g. `GET /api/client/servers/:server/files/list` */
  key: string;
  method: string;
  path: string;
  controller: Type;
  handler: object;
}

const join = (...parts: string[]): string => `/${parts.flatMap((p) => p.split('/')).filter((p) => p !== '').join('/')}`;
const first = (value: string | string[] | undefined): string => (Array.isArray(value) ? value[0] : (value ?? ''));

/** Every route of the app with its method and full path, as Nest registers them. */
export const listRoutes = (root: ModuleRef): RouteInfo[] =>
  collectControllers(root).flatMap((controller) =>
    routeHandlers(controller).map(({ handler }) => {
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
      const path = join(first(Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined), first(Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined));
      return { key: `${method} ${path}`, method, path, controller, handler };
    }),
  );
