/**
 * What an import brought over, what it left behind and why, and what the host does next. The dry run
 * and the real run fill the same report through the same code, so the dry run's figures are the
 * real run's.
 */

/** The kinds in the order they are imported, with their names in the report. */
export const IMPORT_KINDS = {
  users: 'users',
  twoFactor: 'two-factor secrets',
  recoveryCodes: 'recovery codes',
  sshKeys: 'SSH keys',
  apiKeys: 'API keys (ptlc_/ptla_)',
  locations: 'locations',
  nodes: 'nodes',
  nests: 'nests',
  eggs: 'eggs',
  eggVariables: 'egg variables',
  servers: 'servers',
  allocations: 'allocations',
  serverVariables: 'server variables',
  subusers: 'subusers',
  databaseHosts: 'database hosts',
  databases: 'databases',
  schedules: 'schedules',
  tasks: 'schedule tasks',
  backups: 'backups',
  mounts: 'mounts',
  mountLinks: 'mount links (eggs, nodes, servers)',
  serverActivity: 'server activity entries',
  accountActivity: 'account activity entries',
  settings: 'panel settings (the two-factor requirement)',
} as const;

export type ImportKind = keyof typeof IMPORT_KINDS;

interface LeftBehind {
  count: number;
  examples: string[];
}

const MAX_EXAMPLES = 5;

export class ImportReport {
  readonly imported = new Map<ImportKind, number>();
  /** Keyed by the reason, in the order first seen. */
  readonly leftBehind = new Map<string, LeftBehind>();
  readonly notes: string[] = [];

  constructor(
    readonly source: string,
    readonly dryRun: boolean,
  ) {}

  count(kind: ImportKind, n = 1): void {
    this.imported.set(kind, (this.imported.get(kind) ?? 0) + n);
  }

  /** Something not brought over (or changed on the way), with an example naming the row when there is one. */
  leave(reason: string, example?: string, n = 1): void {
    const entry = this.leftBehind.get(reason) ?? { count: 0, examples: [] };
    entry.count += n;
    if (example !== undefined && entry.examples.length < MAX_EXAMPLES) {
      entry.examples.push(example);
    }
    this.leftBehind.set(reason, entry);
  }

  note(text: string): void {
    this.notes.push(text);
  }

  toJSON(): Record<string, unknown> {
    return {
      source: this.source,
      dryRun: this.dryRun,
      imported: Object.fromEntries(Object.keys(IMPORT_KINDS).map((k) => [k, this.imported.get(k as ImportKind) ?? 0])),
      leftBehind: [...this.leftBehind].map(([reason, e]) => ({ reason, count: e.count, examples: e.examples })),
      notes: this.notes,
    };
  }

  format(): string {
    const lines: string[] = [];
    lines.push(this.dryRun ? `Dry run of an import from ${this.source}: nothing was written.` : `Imported from ${this.source}.`);
    lines.push('', this.dryRun ? 'Would import:' : 'Imported:');
    const width = Math.max(...Object.values(IMPORT_KINDS).map((n) => n.length));
    for (const [kind, name] of Object.entries(IMPORT_KINDS)) {
      lines.push(`  ${name.padEnd(width)}  ${(this.imported.get(kind as ImportKind) ?? 0).toLocaleString('en-US').padStart(10)}`);
    }
    lines.push('', this.leftBehind.size === 0 ? 'Left behind: nothing.' : 'Left behind or changed:');
    for (const [reason, e] of this.leftBehind) {
      lines.push(`  - ${e.count.toLocaleString('en-US')} × ${reason}`);
      for (const example of e.examples) {
        lines.push(`      ${example}`);
      }
    }
    lines.push('', 'Next:');
    const steps = this.dryRun
      ? ['Read what is left behind above; then run the same command without --dry-run.']
      : [
          'Put Hatchery at the old panel URL (or point each node\'s "remote" at Hatchery): the nodes keep their tokens.',
          'Start Hatchery, open Administration → Nodes and check that every node answers and its servers boot.',
          'Everyone signs in again (sessions are not moved); passwords, two-factor and API keys work as before.',
          ...this.notes,
        ];
    steps.forEach((s, i) => lines.push(`  ${i + 1}. ${s}`));
    if (this.dryRun && this.notes.length > 0) {
      lines.push('', 'Notes:', ...this.notes.map((n) => `  - ${n}`));
    }
    return `${lines.join('\n')}\n`;
  }
}
