import { Alert, Badge, Button, Card, Checkbox, Code, Group, Menu, Modal, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { IconDotsVertical, IconVariable } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';
import { FormError } from '@/components/FormError';
import { PageSkeleton } from '@/components/Skeletons';
import { useConfirmedAction } from '@/components/useConfirmedAction';
import { type EggVariable, eggQuery, useDeleteVariable, useSaveVariable } from '@/features/admin-eggs/api';
import { ApiError, fieldErrors } from '@/lib/api/api-error';
import { ruleStringProblem, valueProblems } from '@/lib/egg-rules';
import { notify } from '@/lib/notify';

const mono = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

/**
 * Add or edit a variable. The rules are checked as the panel checks them (the panel's own parser, through
 * lib/egg-rules) while they are typed: an unknown rule or a bad argument is shown under the field and the
 * variable is not sent. The default value is checked against the rules too: a default that fails them
 * is saved (the panel allows it, and eggs ship such defaults for the admin to fill in), but said so.
 */
const VariableDialog = ({ eggId, variable, onClose }: { eggId: string; variable?: EggVariable; onClose: () => void }) => {
  const { t } = useTranslation();
  const save = useSaveVariable(eggId);
  const [name, setName] = useState(variable?.name ?? '');
  const [description, setDescription] = useState(variable?.description ?? '');
  const [envVariable, setEnvVariable] = useState(variable?.envVariable ?? '');
  const [defaultValue, setDefaultValue] = useState(variable?.defaultValue ?? '');
  const [userViewable, setUserViewable] = useState(variable?.userViewable ?? true);
  const [userEditable, setUserEditable] = useState(variable?.userEditable ?? false);
  const [rules, setRules] = useState(variable?.rules ?? '');
  const rulesProblem = ruleStringProblem(rules);
  const defaultProblems = valueProblems(rules, defaultValue, envVariable.trim() || name.trim() || 'value');
  const server = save.error instanceof ApiError ? fieldErrors(save.error) : {};

  return (
    <Modal opened onClose={onClose} title={variable ? t('adminEggs.variables.editTitle') : t('adminEggs.variables.addTitle')} closeButtonProps={{ 'aria-label': t('common.close') }} size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (rulesProblem !== null) {
            return;
          }
          save.mutate(
            { id: variable?.id, name: name.trim(), description, envVariable: envVariable.trim(), defaultValue, userViewable, userEditable, rules: rules.trim() },
            {
              onSuccess: () => {
                notify({ color: 'green', message: variable ? t('adminEggs.variables.saved') : t('adminEggs.variables.added', { name: name.trim() }) });
                onClose();
              },
            },
          );
        }}
      >
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('adminEggs.variables.name')} required maxLength={191} value={name} onChange={(e) => setName(e.currentTarget.value)} error={server.name} data-autofocus />
            <TextInput
              label={t('adminEggs.variables.env')}
              description={t('adminEggs.variables.envHelp')}
              required
              maxLength={191}
              value={envVariable}
              onChange={(e) => setEnvVariable(e.currentTarget.value)}
              error={server.envVariable}
              styles={mono}
            />
          </SimpleGrid>
          <Textarea label={t('adminEggs.variables.description')} autosize minRows={2} maxRows={6} value={description} onChange={(e) => setDescription(e.currentTarget.value)} error={server.description} />
          <TextInput
            label={t('adminEggs.variables.rules')}
            description={t('adminEggs.variables.rulesHelp')}
            value={rules}
            onChange={(e) => setRules(e.currentTarget.value)}
            error={rulesProblem ?? server.rules}
            styles={mono}
            autoComplete="off"
            spellCheck={false}
          />
          <TextInput
            label={t('adminEggs.variables.default')}
            value={defaultValue}
            onChange={(e) => setDefaultValue(e.currentTarget.value)}
            error={server.defaultValue}
            styles={mono}
            aria-describedby={defaultProblems.length > 0 ? 'variable-default-problems' : undefined}
          />
          {defaultProblems.length > 0 ? (
            <Alert color="yellow" variant="light" p="xs" id="variable-default-problems">
              <Text size="sm">{t('adminEggs.variables.defaultFails')}</Text>
              {defaultProblems.map((p) => (
                <Text size="sm" key={p}>
                  {p}
                </Text>
              ))}
            </Alert>
          ) : null}
          <Group gap="lg">
            <Checkbox label={t('adminEggs.variables.viewable')} checked={userViewable} onChange={(e) => setUserViewable(e.currentTarget.checked)} />
            <Checkbox label={t('adminEggs.variables.editable')} checked={userEditable} onChange={(e) => setUserEditable(e.currentTarget.checked)} />
          </Group>
          {save.error && Object.keys(server).length === 0 ? <FormError error={save.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending} disabled={rulesProblem !== null || !name.trim() || !envVariable.trim()}>
              {variable ? t('adminEggs.save') : t('adminEggs.variables.add')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};

const VariableCard = ({ variable, onEdit, onDelete }: { variable: EggVariable; onEdit: () => void; onDelete: () => void }) => {
  const { t } = useTranslation();
  return (
    <Card withBorder component="li" padding="sm" aria-label={variable.name}>
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {variable.name}
            </Text>
            <Code style={{ overflowWrap: 'anywhere' }}>{variable.envVariable}</Code>
          </Group>
          {variable.description ? (
            <Text size="sm" c="dimmed" lineClamp={3} style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}>
              {variable.description}
            </Text>
          ) : null}
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {t('adminEggs.variables.defaultIs')}{' '}
            {variable.defaultValue === '' ? (
              <Text span c="dimmed">
                {t('adminEggs.variables.empty')}
              </Text>
            ) : (
              <Code>{variable.defaultValue}</Code>
            )}
          </Text>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {t('adminEggs.variables.rulesAre')}{' '}
            {variable.rules === '' ? (
              <Text span c="dimmed">
                {t('adminEggs.variables.none')}
              </Text>
            ) : (
              <Code style={{ whiteSpace: 'normal', overflowWrap: 'anywhere' }}>{variable.rules}</Code>
            )}
          </Text>
          <Group gap={6}>
            <Badge variant="default">{variable.userViewable ? t('adminEggs.variables.viewableBadge') : t('adminEggs.variables.hiddenBadge')}</Badge>
            <Badge variant="default">{variable.userEditable ? t('adminEggs.variables.editableBadge') : t('adminEggs.variables.readOnlyBadge')}</Badge>
          </Group>
        </Stack>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <Button variant="default" size="xs" style={{ flexShrink: 0 }} rightSection={<IconDotsVertical size={14} aria-hidden />} aria-label={t('adminEggs.variables.actionsOf', { name: variable.name })}>
              {t('adminEggs.actions')}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={onEdit}>{t('adminEggs.variables.edit')}</Menu.Item>
            <Menu.Item color="red" onClick={onDelete}>
              {t('adminEggs.variables.delete')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
    </Card>
  );
};

/** /admin/eggs/$eggId/variables: the egg's variables in order; add, edit, delete. */
export const EggVariablesPage = ({ eggId }: { eggId: string }) => {
  const { t } = useTranslation();
  const egg = useQuery(eggQuery(eggId));
  const remove = useConfirmedAction({
    mutation: useDeleteVariable(eggId),
    variables: (v: EggVariable) => v.id,
    title: t('adminEggs.variables.deleteTitle'),
    message: (v) => t('adminEggs.variables.deleteText', { name: v.name, env: v.envVariable }),
    confirmLabel: t('adminEggs.variables.delete'),
    danger: true,
    successMessage: (v) => t('adminEggs.variables.deleted', { name: v.name }),
    keepOpenOnError: true,
  });
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<EggVariable | null>(null);
  if (!egg.data) {
    return <PageSkeleton />;
  }
  const { variables } = egg.data;
  const addButton = <Button onClick={() => setAdding(true)}>{t('adminEggs.variables.add')}</Button>;
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Stack gap={0} style={{ minWidth: 0, flex: '1 1 240px' }}>
          <Title order={3} size="h4">
            {t('adminEggs.variables.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('adminEggs.variables.subtitle', { example: '{{SERVER_JARFILE}}' })}
          </Text>
        </Stack>
        {variables.length > 0 ? addButton : null}
      </Group>
      {variables.length === 0 ? (
        <EmptyState icon={<IconVariable />} title={t('adminEggs.variables.emptyTitle')} description={t('adminEggs.variables.emptyText')} action={addButton} />
      ) : (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('adminEggs.variables.title')}>
          {variables.map((v) => (
            <VariableCard key={v.id} variable={v} onEdit={() => setEditing(v)} onDelete={() => remove.ask(v)} />
          ))}
        </Stack>
      )}
      {adding ? <VariableDialog eggId={eggId} onClose={() => setAdding(false)} /> : null}
      {editing ? <VariableDialog eggId={eggId} variable={editing} onClose={() => setEditing(null)} /> : null}
      {remove.dialog}
    </Stack>
  );
};
