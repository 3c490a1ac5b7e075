import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type {
  DataSource,
  EntityMetadata,
  EntitySubscriberInterface,
  InsertEvent,
  ObjectLiteral,
  QueryRunner,
  RemoveEvent,
  TransactionCommitEvent,
  TransactionRollbackEvent,
  UpdateEvent,
} from 'typeorm';
import { HotCaches } from 'src/common/hot-cache/hot-caches';
import { idText, RowChange, WATCHED_TABLES } from 'src/common/hot-cache/row-changes';

const WATCHED: ReadonlySet<string> = new Set(WATCHED_TABLES);

const idOf = (metadata: EntityMetadata, ...rows: (ObjectLiteral | undefined)[]): string | undefined => {
  const [primary, ...more] = metadata.primaryColumns;
  if (!primary || more.length > 0) {
    return undefined;
  }
  for (const row of rows) {
    const id = idText(row?.[primary.propertyName]);
    if (id !== undefined) {
      return id;
    }
  }
  return undefined;
};

const plain = (row: unknown): Record<string, unknown> | undefined =>
  row !== null && typeof row === 'object' ? (row as Record<string, unknown>) : undefined;

/**
 * Every write TypeORM makes to a watched table drops what it makes wrong in this process's caches,
 * synchronously: repository and entity-manager writes, and QueryBuilder inserts, updates and deletes
 * (those broadcast only the values set, or nothing, so all of that kind goes). A write inside a
 * transaction is applied again once the transaction commits, because until then a concurrent read
 * still sees the old row and may have cached it. Raw SQL (`query()`) is not seen here; on PostgreSQL
 * the change feed hears it a moment later.
 */
@Injectable()
export class ChangeSubscriber implements EntitySubscriberInterface {
  private readonly pending = new WeakMap<QueryRunner, RowChange[]>();

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly caches: HotCaches,
  ) {
    dataSource.subscribers.push(this);
  }

  afterInsert(event: InsertEvent<ObjectLiteral>): void {
    const after = plain(event.entity);
    this.record(event.queryRunner, { table: event.metadata.tableName, op: 'insert', id: idOf(event.metadata, after, plain(event.entityId)) ?? idText(event.entityId), after });
  }

  afterUpdate(event: UpdateEvent<ObjectLiteral>): void {
    const after = plain(event.entity);
    const before = plain(event.databaseEntity);
    // save() loads the row first and names the changed columns; a QueryBuilder update has only the values it sets.
    const fromSave = before !== undefined;
    this.record(event.queryRunner, {
      table: event.metadata.tableName,
      op: 'update',
      id: fromSave ? idOf(event.metadata, after, before) : undefined,
      before,
      after,
      changed: fromSave ? event.updatedColumns.map((c) => c.propertyName) : after ? Object.keys(after) : undefined,
    });
  }

  afterRemove(event: RemoveEvent<ObjectLiteral>): void {
    const before = plain(event.databaseEntity) ?? plain(event.entity);
    this.record(event.queryRunner, {
      table: event.metadata.tableName,
      op: 'remove',
      id: idText(event.entityId) ?? idOf(event.metadata, before, plain(event.entity)),
      before,
      after: before,
    });
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    // Savepoints release inside the transaction: wait for the outermost commit.
    if (event.queryRunner.isTransactionActive) {
      return;
    }
    const changes = this.pending.get(event.queryRunner);
    this.pending.delete(event.queryRunner);
    for (const change of changes ?? []) {
      this.caches.apply(change);
    }
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    if (!event.queryRunner.isTransactionActive) {
      this.pending.delete(event.queryRunner);
    }
  }

  private record(queryRunner: QueryRunner, change: RowChange): void {
    if (!WATCHED.has(change.table)) {
      return;
    }
    this.caches.apply(change);
    if (queryRunner.isTransactionActive) {
      const changes = this.pending.get(queryRunner);
      if (changes) {
        changes.push(change);
      } else {
        this.pending.set(queryRunner, [change]);
      }
    }
  }
}
