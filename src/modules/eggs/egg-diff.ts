import type { EggEntity } from 'src/modules/eggs/egg.entity';
import type { EggVariableEntity } from 'src/modules/eggs/egg-variable.entity';
import type { parsePtdl } from 'src/modules/eggs/ptdl';

type Parsed = ReturnType<typeof parsePtdl>;

/** One field that differs, each side as text (lists one item a line), null when unset. */
export interface FieldChange {
  field: string;
  before: string | null;
  after: string | null;
}

export interface VariableChange {
  envVariable: string;
  change: 'added' | 'removed' | 'changed';
  fields: FieldChange[];
}

export interface EggDiff {
  fields: FieldChange[];
  variables: VariableChange[];
}

type Text = string | null;

const lines = (list: string[] | null): Text => (list === null ? null : list.join('\n'));

/** The egg fields an update from a document replaces, as the API names them, each rendered as text. */
const EGG_FIELDS: [string, (egg: Parsed['egg']) => Text][] = [
  ['name', (e) => e.name],
  ['author', (e) => e.author],
  ['description', (e) => e.description],
  ['features', (e) => lines(e.features)],
  ['dockerImages', (e) => e.dockerImages.map((i) => (i.name === i.image ? i.image : `${i.name}: ${i.image}`)).join('\n')],
  ['fileDenylist', (e) => lines(e.fileDenylist)],
  ['startup', (e) => e.startup],
  ['forceOutgoingIp', (e) => String(e.forceOutgoingIp)],
  ['configFiles', (e) => e.configFiles],
  ['configStartup', (e) => e.configStartup],
  ['configLogs', (e) => e.configLogs],
  ['configStop', (e) => e.configStop],
  ['scriptContainer', (e) => e.scriptContainer],
  ['scriptEntry', (e) => e.scriptEntry],
  ['scriptInstall', (e) => e.scriptInstall],
];

type VariableFields = Parsed['variables'][number];

const VARIABLE_FIELDS: [string, (v: VariableFields) => Text][] = [
  ['name', (v) => v.name],
  ['description', (v) => v.description],
  ['defaultValue', (v) => v.defaultValue],
  ['userViewable', (v) => String(v.userViewable)],
  ['userEditable', (v) => String(v.userEditable)],
  ['rules', (v) => v.rules],
];

const compare = <T>(specs: [string, (x: T) => Text][], before: T | null, after: T | null): FieldChange[] =>
  specs.flatMap(([field, read]) => {
    const [b, a] = [before === null ? null : read(before), after === null ? null : read(after)];
    return b === a ? [] : [{ field, before: b, after: a }];
  });

/**
 * What an update from `next` would change in `egg` and its variables. Variables are matched by their
 * environment name: new names are added, missing ones removed (and the servers' values with them).
 * An egg that copies its install script from another gets its own script from the document, so its
 * `copyScriptFrom` shows as a change too.
 */
export const diffEgg = (egg: EggEntity, variables: EggVariableEntity[], next: Parsed, scriptSourceName: string | null): EggDiff => {
  const fields = compare(EGG_FIELDS, egg, next.egg);
  if (egg.copyScriptFrom !== null) {
    fields.push({ field: 'copyScriptFrom', before: scriptSourceName, after: null });
  }
  if (next.egg.updateUrl !== null && next.egg.updateUrl !== egg.updateUrl) {
    fields.push({ field: 'updateUrl', before: egg.updateUrl, after: next.egg.updateUrl });
  }
  const current = new Map(variables.map((v) => [v.envVariable, v]));
  const incoming = new Set(next.variables.map((v) => v.envVariable));
  const changes: VariableChange[] = next.variables.flatMap((v): VariableChange[] => {
    const old = current.get(v.envVariable);
    if (!old) {
      return [{ envVariable: v.envVariable, change: 'added', fields: compare(VARIABLE_FIELDS, null, v) }];
    }
    const changed = compare(VARIABLE_FIELDS, old, v);
    return changed.length > 0 ? [{ envVariable: v.envVariable, change: 'changed', fields: changed }] : [];
  });
  for (const old of variables.filter((v) => !incoming.has(v.envVariable))) {
    changes.push({ envVariable: old.envVariable, change: 'removed', fields: compare(VARIABLE_FIELDS, old, null) });
  }
  return { fields, variables: changes };
};
