import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/**
 * Each module owns its tables (docs/development.md, "How the code is laid out"): no file of src/modules/<m> uses another
 * module's entity class as a value (getRepository(X), @InjectRepository(X), manager.find(X, …),
 * createQueryBuilder(X, …), new X(), a relation's `() => X`) or names another module's table in SQL
 * (`FROM`, `JOIN`, `UPDATE`, `INTO`). Another module's rows are reached through its service, with the
 * transaction's manager where one step spans both.
 *
 * Another module's entity as a type is allowed: the owner's service hands its rows out typed by
 * their class (an AuthContext's user, a LoadedServer's node), which reads or writes nothing. So are
 * TypeORM relations to another module's entity, declared in an entity file for the foreign key, and
 * the joins along them (`leftJoinAndSelect('server.node', 'node')`, `relations: { owner: true }`):
 * they read the row the foreign key points at, with the row that holds it, and write nothing.
 * Spec files are not scanned: they build rows as test data. src/database (the data source that lists
 * every entity, the migrations) is outside src/modules and not scanned either.
 */

const ROOT = join(__dirname, '..', '..');
const MODULES = join(ROOT, 'src', 'modules');

interface EntityInfo {
  module: string;
  table: string;
}

/** A use the rule forbids, as `file: what`. */
type Violation = string;


/** TypeORM's relation decorators: an entity may name another module's entity in one, for the foreign key and joins. */
const RELATION_DECORATORS = new Set(['ManyToOne', 'OneToOne', 'OneToMany', 'ManyToMany']);

const SQL_TABLE = /\b(?:FROM|JOIN|UPDATE|INTO)\s+"?([a-z_]+)"?/g;

/** The module of a file given relative to the repository root (src/modules/<module>/…). */
const moduleOf = (file: string): string => relative(join('src', 'modules'), file).split(/[\\/]/)[0];

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      return sourceFiles(path);
    }
    return e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') ? [path] : [];
  });

const parse = (file: string, text: string): ts.SourceFile => ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);

const decoratorName = (d: ts.Decorator): string | undefined => {
  const e = d.expression;
  const callee = ts.isCallExpression(e) ? e.expression : e;
  return ts.isIdentifier(callee) ? callee.text : undefined;
};

/** Every @Entity class of the modules: its module and its table. */
export const entitiesOf = (files: { file: string; text: string }[]): Map<string, EntityInfo> => {
  const entities = new Map<string, EntityInfo>();
  for (const { file, text } of files) {
    parse(file, text).forEachChild((node) => {
      if (!ts.isClassDeclaration(node) || !node.name) {
        return;
      }
      const entity = ts.getDecorators(node)?.find((d) => decoratorName(d) === 'Entity');
      if (!entity) {
        return;
      }
      const [arg] = ts.isCallExpression(entity.expression) ? entity.expression.arguments : [];
      let table: string | undefined;
      if (arg && ts.isStringLiteral(arg)) {
        table = arg.text;
      } else if (arg && ts.isObjectLiteralExpression(arg)) {
        const name = arg.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText() === 'name');
        table = name && ts.isStringLiteral(name.initializer) ? name.initializer.text : undefined;
      }
      entities.set(node.name.text, { module: moduleOf(file), table: table ?? node.name.text });
    });
  }
  return entities;
};

/** Whether `node` is (part of) a type, which reads and writes nothing. */
const inTypePosition = (node: ts.Node): boolean => {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
    if (ts.isTypeNode(n) && !ts.isExpressionWithTypeArguments(n)) {
      return true;
    }
    if (ts.isImportDeclaration(n) || ts.isImportSpecifier(n) || ts.isExportSpecifier(n)) {
      return true;
    }
    if (ts.isHeritageClause(n)) {
      return n.token === ts.SyntaxKind.ImplementsKeyword;
    }
    if (ts.isStatement(n) || ts.isClassElement(n)) {
      return false;
    }
  }
  return false;
};

/** Whether `node` sits in a TypeORM relation decorator (`@ManyToOne(() => UserEntity)`). */
const inRelationDecorator = (node: ts.Node): boolean => {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
    if (ts.isDecorator(n)) {
      return RELATION_DECORATORS.has(decoratorName(n) ?? '');
    }
  }
  return false;
};

/** The module's file `file` (path relative to the repository root), checked against every module's entities. */
export const violationsIn = (file: string, text: string, entities: Map<string, EntityInfo>): Violation[] => {
  const own = moduleOf(file);
  const isEntityFile = file.endsWith('.entity.ts');
  const found = new Set<Violation>();
  const source = parse(file, text);
  // `import { UserEntity as U }`: U is UserEntity.
  const aliases = new Map<string, string>();
  source.forEachChild((node) => {
    const bindings = ts.isImportDeclaration(node) ? node.importClause?.namedBindings : undefined;
    if (bindings && ts.isNamedImports(bindings)) {
      bindings.elements.forEach((e) => e.propertyName && aliases.set(e.name.text, e.propertyName.text));
    }
  });
  const foreign = (name: string): EntityInfo | undefined => {
    const entity = entities.get(aliases.get(name) ?? name);
    return entity && entity.module !== own ? entity : undefined;
  };
  const foreignTables = new Map([...entities.values()].filter((e) => e.module !== own).map((e) => [e.table, e]));
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && foreign(node.text) && !inTypePosition(node) && !(isEntityFile && inRelationDecorator(node))) {
      found.add(`${file}: ${node.text} (module ${foreign(node.text)!.module})`);
    }
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      for (const [, table] of node.text.matchAll(SQL_TABLE)) {
        const owner = foreignTables.get(table);
        if (owner) {
          found.add(`${file}: table ${table} (module ${owner.module})`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...found];
};

describe('module boundaries', () => {
  const files = sourceFiles(MODULES).map((path) => ({ file: relative(ROOT, path), text: readFileSync(path, 'utf8') }));
  const entities = entitiesOf(files);
  const violations = files.flatMap(({ file, text }) => violationsIn(file, text, entities));

  it("should find the modules' entities and their tables", () => {
    expect(entities.get('UserEntity')).toEqual({ module: 'users', table: 'user' });
    expect(entities.get('AllocationEntity')).toEqual({ module: 'nodes', table: 'allocation' });
    expect(entities.get('PterodactylKeyEntity')).toEqual({ module: 'pterodactyl', table: 'pterodactyl_api_key' });
  });

  it("should have no module use another module's entity or table", () => {
    expect(violations).toEqual([]);
  });

  it('should report a query, a lock or a raw statement on a foreign table, and let types and relations be', () => {
    const source = `
      import { InjectRepository } from '@nestjs/typeorm';
      import { ManyToOne } from 'typeorm';
      import type { ServerEntity } from 'src/modules/servers/server.entity';
      import { UserEntity } from 'src/modules/users/user.entity';
      import { NodeEntity as Node } from 'src/modules/nodes/node.entity';
      export class BackupsRepository {
        constructor(@InjectRepository(UserEntity) private readonly users: unknown, private readonly m: any) {}
        lock(id: string): Promise<ServerEntity | null> {
          return this.m.getRepository(UserEntity).createQueryBuilder('u').setLock('pessimistic_write').where({ id }).getOne();
        }
        raw(): Promise<unknown> {
          return this.m.query('UPDATE "user" SET x = 1; SELECT * FROM backup b JOIN server s ON s.id = b.server_id');
        }
        typed(u: UserEntity): UserEntity[] {
          return [u];
        }
        node(id: string): Promise<unknown> {
          return this.m.findOneBy(Node, { id });
        }
      }
      export class Ok {
        @ManyToOne(() => UserEntity)
        user?: UserEntity;
      }`;
    expect(violationsIn('src/modules/backups/backups.repository.ts', source, entities).sort()).toEqual([
      'src/modules/backups/backups.repository.ts: Node (module nodes)',
      'src/modules/backups/backups.repository.ts: UserEntity (module users)',
      'src/modules/backups/backups.repository.ts: table server (module servers)',
      'src/modules/backups/backups.repository.ts: table user (module users)',
    ]);
    expect(violationsIn('src/modules/backups/backup.entity.ts', source.replace(/@InjectRepository\(UserEntity\)|getRepository\(UserEntity\)|\(Node,/g, 'x'), entities).sort()).toEqual([
      'src/modules/backups/backup.entity.ts: table server (module servers)',
      'src/modules/backups/backup.entity.ts: table user (module users)',
    ]);
  });
});
