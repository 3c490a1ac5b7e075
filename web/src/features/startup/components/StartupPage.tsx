import { Badge, Button, Card, Code, Group, List, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconLock, IconVariable } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '@/components/CopyButton';
import { EmptyState } from '@/components/EmptyState';
import { QueryListBody } from '@/components/QueryListBody';
import { FormError } from '@/components/FormError';
import { CardsSkeleton } from '@/components/Skeletons';
import { serverQuery } from '@/features/server/api';
import { startupQuery, useSaveVariable, useSetDockerImage, type Startup, type StartupVariable } from '@/features/startup/api';
import { previewCommand } from '@/features/startup/command-preview';
import { ApiError, fieldErrors } from '@/lib/api/api-error';
import { parseRules, ruleStringProblem, valueProblems } from '@/lib/egg-rules';
import { describeRules } from '@/lib/egg-rules/words';
import { notify } from '@/lib/notify';

/** The rules of a variable in plain words; a rules string the panel would refuse is shown as written. */
const RuleWords = ({ rules }: { rules: string }) => {
  const { t } = useTranslation();
  if (rules.trim() === '') {
    return null;
  }
  if (ruleStringProblem(rules) !== null) {
    return (
      <Text size="sm" c="dimmed">
        {t('startup.rulesRaw')} <Code>{rules}</Code>
      </Text>
    );
  }
  const words = describeRules(parseRules(rules));
  return (
    <List size="sm" c="dimmed" aria-label={t('startup.rules')} spacing={0}>
      {words.map((w, i) => (
        <List.Item key={i} style={{ overflowWrap: 'anywhere' }}>
          {t(`eggRules.${w.key}`, { ...w.values, defaultValue: w.key })}
        </List.Item>
      ))}
    </List>
  );
};

interface VariableCardProps {
  serverId: string;
  variable: StartupVariable;
  value: string;
  canUpdate: boolean;
  onType: (value: string) => void;
  onSaved: () => void;
}

/** One variable: its value checked against its rules as typed (the panel's own rules module), saved on its own. */
const VariableCard = ({ serverId, variable, value, canUpdate, onType, onSaved }: VariableCardProps) => {
  const { t } = useTranslation();
  const save = useSaveVariable(serverId);
  const editable = canUpdate && variable.isEditable;
  const problems = editable ? valueProblems(variable.rules, value, variable.envVariable) : [];
  const changed = value !== variable.serverValue;
  const serverMessage = save.error instanceof ApiError ? fieldErrors(save.error).value : undefined;
  const id = `variable-${variable.envVariable}`;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!editable || problems.length > 0 || !changed) {
      return;
    }
    save.mutate(
      { key: variable.envVariable, value },
      {
        onSuccess: () => {
          onSaved();
          notify({ color: 'teal', message: t('startup.saved', { name: variable.name }) });
        },
      },
    );
  };
  const readOnlyReason = !variable.isEditable ? t('startup.readOnlyEgg') : !canUpdate ? t('startup.readOnlyPermission') : null;
  return (
    <Card withBorder padding="md" component="section" aria-labelledby={`${id}-title`} data-variable={variable.envVariable}>
      <form onSubmit={submit} noValidate>
        <Stack gap="xs">
          <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
            <Title order={3} size="h5" id={`${id}-title`} style={{ overflowWrap: 'anywhere' }}>
              {variable.name}
            </Title>
            {readOnlyReason ? (
              <Badge variant="default" leftSection={<IconLock size={12} aria-hidden />} style={{ flexShrink: 0 }}>
                {t('startup.readOnly')}
              </Badge>
            ) : null}
          </Group>
          {variable.description ? (
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {variable.description}
            </Text>
          ) : null}
          <TextInput
            id={id}
            label={
              <>
                {t('startup.value')} <Code>{variable.envVariable}</Code>
              </>
            }
            value={value}
            onChange={(e) => {
              save.reset();
              onType(e.currentTarget.value);
            }}
            readOnly={!editable}
            variant={editable ? 'default' : 'filled'}
            description={readOnlyReason ?? (variable.defaultValue ? t('startup.default', { value: variable.defaultValue }) : undefined)}
            error={(changed ? problems[0] : undefined) ?? serverMessage}
            placeholder={variable.defaultValue || undefined}
            maxLength={4096}
            autoComplete="off"
            spellCheck={false}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
          <RuleWords rules={variable.rules} />
          {save.error && !serverMessage ? <FormError error={save.error} /> : null}
          {editable ? (
            <Group gap="xs">
              <Button type="submit" size="xs" disabled={!changed || problems.length > 0} loading={save.isPending}>
                {t('startup.save')}
              </Button>
              {changed ? (
                <Button size="xs" variant="default" onClick={() => onType(variable.serverValue)}>
                  {t('startup.undo')}
                </Button>
              ) : null}
            </Group>
          ) : null}
        </Stack>
      </form>
    </Card>
  );
};

/**
 * The image the server runs in. With the permission, one of the egg's images can be chosen (a Java
 * version, say); an image an administrator set that the egg does not offer stays theirs to change.
 */
const ImageChoice = ({ serverId, startup, canChoose }: { serverId: string; startup: Startup; canChoose: boolean }) => {
  const { t } = useTranslation();
  const setImage = useSetDockerImage(serverId);
  const image = startup.dockerImages.find((d) => d.image === startup.dockerImage);
  if (canChoose && image && startup.dockerImages.length > 1) {
    return (
      <Stack gap={4}>
        <Select
          label={t('startup.image')}
          description={t('startup.imagePickHelp')}
          data={startup.dockerImages.map((d) => ({ value: d.image, label: d.name === d.image ? d.image : `${d.name} (${d.image})` }))}
          value={startup.dockerImage}
          allowDeselect={false}
          disabled={setImage.isPending}
          onChange={(value) => {
            if (value && value !== startup.dockerImage) {
              const name = startup.dockerImages.find((d) => d.image === value)?.name ?? value;
              setImage.mutate(value, { onSuccess: () => notify({ color: 'green', message: t('startup.imageSaved', { name }) }) });
            }
          }}
          comboboxProps={{ withinPortal: true }}
        />
        {setImage.error ? <FormError error={setImage.error} /> : null}
      </Stack>
    );
  }
  let help = t('startup.imageHelp');
  if (image && startup.dockerImages.length > 1) {
    help = t('startup.imageChoices', { count: startup.dockerImages.length });
  }
  return (
    <Stack gap={2}>
      <Text size="sm" fw={600}>
        {t('startup.image')}
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Code style={{ overflowWrap: 'anywhere' }}>{startup.dockerImage}</Code>
        {image ? <Badge variant="default">{image.name}</Badge> : null}
      </Group>
      <Text size="sm" c="dimmed">
        {help}
      </Text>
    </Stack>
  );
};

/** The command as it will run, filled in with the values on the page (typed or saved), and the image it runs in. */
const CommandCard = ({ serverId, startup, values, canChooseImage }: { serverId: string; startup: Startup; values: Record<string, string>; canChooseImage: boolean }) => {
  const { t } = useTranslation();
  const command = previewCommand(startup.rawStartup, startup.startup, values);
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="startup-command">
      <Stack gap="xs">
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Title order={2} size="h4" id="startup-command">
            {t('startup.command')}
          </Title>
          <CopyButton value={command} label={t('startup.copyCommand')} />
        </Group>
        <Code block data-testid="startup-preview" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} aria-live="polite">
          {command}
        </Code>
        <Text size="sm" c="dimmed">
          {t('startup.commandHelp', { example: '{{SERVER_MEMORY}}' })}
        </Text>
        <ImageChoice serverId={serverId} startup={startup} canChoose={canChooseImage} />
      </Stack>
    </Card>
  );
};

/** /server/$id/startup: the command preview, the image, and the variables the egg lets users see (and maybe change). */
export const StartupPage = ({ serverId }: { serverId: string }) => {
  const { t } = useTranslation();
  const server = useQuery(serverQuery(serverId));
  const startup = useQuery(startupQuery(serverId));
  const [drafts, setDrafts] = useState<Record<string, string>>({});

  return (
    <QueryListBody query={startup} waiting={server.isPending} loading={<CardsSkeleton cards={4} />}>
      {(data) => {
        const granted = new Set(server.data?.permissions ?? []);
        const canUpdate = granted.has('server.startup.update');
        const valueOf = (v: StartupVariable): string => drafts[v.envVariable] ?? v.serverValue;
        const values = Object.fromEntries(data.variables.map((v) => [v.envVariable, valueOf(v)]));
        const setDraft = (env: string, value: string | undefined) =>
          setDrafts((d) => {
            const next = { ...d };
            if (value === undefined) {
              delete next[env];
            } else {
              next[env] = value;
            }
            return next;
          });

        return (
          <Stack gap="md">
            <Title order={2} size="h3">
              {t('startup.title')}
            </Title>
            <CommandCard serverId={serverId} startup={data} values={values} canChooseImage={granted.has('server.startup.docker-image')} />
            <Title order={2} size="h4">
              {t('startup.variables')}
            </Title>
            {data.variables.length === 0 ? (
              <EmptyState icon={<IconVariable />} title={t('startup.emptyTitle')} description={t('startup.emptyText')} />
            ) : (
              <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
                {data.variables.map((v) => (
                  <VariableCard
                    key={v.envVariable}
                    serverId={serverId}
                    variable={v}
                    value={valueOf(v)}
                    canUpdate={canUpdate}
                    onType={(value) => setDraft(v.envVariable, value === v.serverValue ? undefined : value)}
                    onSaved={() => setDraft(v.envVariable, undefined)}
                  />
                ))}
              </SimpleGrid>
            )}
          </Stack>
        );
      }}
    </QueryListBody>
  );
};
