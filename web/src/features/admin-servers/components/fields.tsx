import { Select, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type Allocation, usersQuery } from '@/features/admin-servers/api';
import { parseRules, ruleStringProblem, valueProblems } from '@/lib/egg-rules';
import { describeRules } from '@/lib/egg-rules/words';

/** `ip:port`, with the alias in front when the allocation has one. */
export const allocationLabel = (a: Allocation): string => (a.alias ? `${a.alias} (${a.ip}:${a.port})` : `${a.ip}:${a.port}`);

/** The owner: every account, searchable by username, e-mail or name. */
export const OwnerSelect = ({ value, onChange, error }: { value: string; onChange: (id: string) => void; error?: string }) => {
  const { t } = useTranslation();
  const users = useQuery(usersQuery);
  return (
    <Select
      label={t('adminServers.fields.owner')}
      description={t('adminServers.fields.ownerHelp')}
      placeholder={users.isPending ? t('common.loading') : t('adminServers.fields.ownerPlaceholder')}
      searchable
      required
      nothingFoundMessage={t('adminServers.fields.noUser')}
      data={(users.data ?? []).map((u) => ({ value: u.id, label: `${u.username} · ${u.email}${u.name ? ` · ${u.name}` : ''}` }))}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      error={error ?? (users.isError ? t('adminServers.fields.usersFailed') : undefined)}
      comboboxProps={{ withinPortal: true }}
    />
  );
};

interface VariableFieldProps {
  variable: { envVariable: string; name: string; description: string; rules: string; userViewable: boolean; userEditable: boolean };
  value: string;
  onChange: (value: string) => void;
  error?: string;
  /** Show whether users may see and edit it (admins edit all). */
  showAccess?: boolean;
}

/** The first message the panel would answer for a variable's value (its own rules module), or undefined. */
export const variableProblem = (variable: { envVariable: string; rules: string }, value: string): string | undefined => valueProblems(variable.rules, value, variable.envVariable)[0];

/** One egg variable: its name, description and rules in plain words, checked as the panel checks it. */
export const VariableField = ({ variable, value, onChange, error, showAccess }: VariableFieldProps) => {
  const { t } = useTranslation();
  const words = ruleStringProblem(variable.rules) === null ? describeRules(parseRules(variable.rules)).map((w) => t(`eggRules.${w.key}`, { replace: w.values })) : [];
  const access = showAccess ? [variable.userViewable ? (variable.userEditable ? t('adminServers.variables.userEditable') : t('adminServers.variables.userReadOnly')) : t('adminServers.variables.hidden')] : [];
  const description = [variable.description, [`${variable.envVariable}`, ...words, ...access].join(' · ')].filter(Boolean).join('\n');
  return (
    <TextInput
      label={variable.name}
      description={description}
      styles={{ description: { whiteSpace: 'pre-line' } }}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
      autoComplete="off"
      spellCheck={false}
    />
  );
};
