import { Button, Card, Checkbox, Group, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/components/ErrorState';
import { FormError } from '@/components/FormError';
import { ListSkeleton } from '@/components/Skeletons';
import { type AdminServer, type AdminStartup, adminStartupQuery, type StartupBody, useUpdateStartup } from '@/features/admin-servers/api';
import { VariableField, variableProblem } from '@/features/admin-servers/components/fields';
import { notifySaved } from '@/features/admin-servers/components/notify-saved';
import { CUSTOM_IMAGE } from '@/features/admin-servers/wizard';
import { ApiError, fieldErrors } from '@/lib/api/api-error';

const StartupForm = ({ serverId, startup }: { serverId: string; startup: AdminStartup }) => {
  const { t } = useTranslation();
  const update = useUpdateStartup(serverId);
  const known = startup.dockerImages.some((d) => d.image === startup.image);
  const [command, setCommand] = useState(startup.startup);
  const [image, setImage] = useState(known ? startup.image : CUSTOM_IMAGE);
  const [customImage, setCustomImage] = useState(known ? '' : startup.image);
  const [skipScripts, setSkipScripts] = useState(startup.skipScripts);
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(startup.variables.map((v) => [v.envVariable, v.serverValue])));
  const [local, setLocal] = useState<Record<string, string>>({});
  const remote = update.error instanceof ApiError ? fieldErrors(update.error) : {};
  const errors = { ...remote, ...local };
  const imageValue = image === CUSTOM_IMAGE ? customImage.trim() : image;

  const submit = () => {
    const found: Record<string, string> = {};
    for (const v of startup.variables) {
      const problem = variableProblem(v, values[v.envVariable] ?? '');
      if (problem) {
        found[`environment.${v.envVariable}`] = problem;
      }
    }
    if (command.trim() === '') {
      found.startup = t('adminServers.errors.required');
    }
    if (imageValue === '') {
      found.image = t('adminServers.errors.required');
    }
    setLocal(found);
    if (Object.keys(found).length > 0) {
      return;
    }
    const environment = Object.fromEntries(startup.variables.filter((v) => values[v.envVariable] !== v.serverValue).map((v) => [v.envVariable, values[v.envVariable] ?? '']));
    const body: StartupBody = {
      ...(command !== startup.startup ? { startup: command } : {}),
      ...(imageValue !== startup.image ? { image: imageValue } : {}),
      ...(skipScripts !== startup.skipScripts ? { skip_scripts: skipScripts } : {}),
      ...(Object.keys(environment).length > 0 ? { environment } : {}),
    };
    update.mutate(body, { onSuccess: notifySaved });
  };

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <Stack gap="md">
        <Card withBorder padding="lg" component="section" aria-labelledby="startup-command">
          <Stack>
            <Title order={3} size="h4" id="startup-command">
              {t('adminServers.startup.command')}
            </Title>
            <Textarea
              label={t('adminServers.fields.startup')}
              description={t('adminServers.fields.startupHelp')}
              required
              autosize
              minRows={2}
              value={command}
              onChange={(e) => setCommand(e.currentTarget.value)}
              error={errors.startup}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            />
            {command !== startup.eggStartup ? (
              <Group>
                <Button variant="subtle" size="compact-sm" onClick={() => setCommand(startup.eggStartup)}>
                  {t('adminServers.fields.resetStartup')}
                </Button>
              </Group>
            ) : null}
            <Select
              label={t('adminServers.fields.image')}
              required
              data={[...startup.dockerImages.map((d) => ({ value: d.image, label: `${d.name} (${d.image})` })), { value: CUSTOM_IMAGE, label: t('adminServers.fields.customImage') }]}
              value={image}
              onChange={(v) => setImage(v ?? '')}
              error={image === CUSTOM_IMAGE ? undefined : errors.image}
            />
            {image === CUSTOM_IMAGE ? (
              <TextInput label={t('adminServers.fields.customImageName')} required value={customImage} onChange={(e) => setCustomImage(e.currentTarget.value)} error={errors.image} />
            ) : null}
            <Checkbox label={t('adminServers.fields.skipScripts')} description={t('adminServers.fields.skipScriptsHelp')} checked={skipScripts} onChange={(e) => setSkipScripts(e.currentTarget.checked)} />
          </Stack>
        </Card>
        <Card withBorder padding="lg" component="section" aria-labelledby="startup-variables">
          <Stack>
            <Title order={3} size="h4" id="startup-variables">
              {t('adminServers.startup.variables')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('adminServers.startup.variablesHelp')}
            </Text>
            {startup.variables.length === 0 ? <Text c="dimmed">{t('adminServers.variables.none')}</Text> : null}
            {startup.variables.map((v) => (
              <VariableField
                key={v.envVariable}
                variable={v}
                showAccess
                value={values[v.envVariable] ?? ''}
                onChange={(value) => setValues((x) => ({ ...x, [v.envVariable]: value }))}
                error={errors[`environment.${v.envVariable}`]}
              />
            ))}
          </Stack>
        </Card>
        {update.error && Object.keys(remote).length === 0 ? <FormError error={update.error} /> : null}
        <Group justify="flex-end">
          <Button type="submit" loading={update.isPending}>
            {t('adminServers.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
};

/** Startup command, image and every egg variable (admins edit the read-only and hidden ones too). */
export const StartupTab = ({ server }: { server: AdminServer }) => {
  const startup = useQuery(adminStartupQuery(server.id));
  if (startup.isError) {
    return <ErrorState error={startup.error} onRetry={() => void startup.refetch()} />;
  }
  if (!startup.data) {
    return <ListSkeleton rows={4} />;
  }
  // Keyed by the saved state: after a save the form starts from what the panel now holds.
  return <StartupForm key={startup.dataUpdatedAt} serverId={server.id} startup={startup.data} />;
};
