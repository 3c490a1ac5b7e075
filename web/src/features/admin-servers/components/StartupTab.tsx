import { Alert, Button, Card, Checkbox, Group, Modal, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/components/ErrorState';
import { FormError } from '@/components/FormError';
import { ListSkeleton } from '@/components/Skeletons';
import { type AdminServer, type AdminStartup, adminStartupQuery, eggQuery, eggsQuery, nestsQuery, type StartupBody, useUpdateStartup } from '@/features/admin-servers/api';
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

/**
 * Another egg for the server: its variables (with the egg's defaults, checked by its rules) replace the
 * server's, its startup command replaces the current one. The server is not reinstalled.
 */
const ChangeEggDialog = ({ server, nestId, onClose }: { server: AdminServer; nestId: string; onClose: () => void }) => {
  const { t } = useTranslation();
  const update = useUpdateStartup(server.id);
  const [nest, setNest] = useState(nestId);
  const [eggId, setEggId] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [local, setLocal] = useState<Record<string, string>>({});
  const nests = useQuery(nestsQuery);
  const eggs = useQuery(eggsQuery(nest));
  const egg = useQuery(eggQuery(eggId));
  const remote = update.error instanceof ApiError ? fieldErrors(update.error) : {};
  const errors = { ...remote, ...local };
  const chosen = egg.data && egg.data.id === eggId ? egg.data : undefined;
  const valueOf = (env: string, fallback: string) => values[env] ?? fallback;

  const submit = () => {
    if (!chosen) {
      setLocal({ egg_id: t('adminServers.errors.chooseEgg') });
      return;
    }
    const found: Record<string, string> = {};
    for (const v of chosen.variables) {
      const problem = variableProblem(v, valueOf(v.envVariable, v.defaultValue));
      if (problem) {
        found[`environment.${v.envVariable}`] = problem;
      }
    }
    setLocal(found);
    if (Object.keys(found).length > 0) {
      return;
    }
    const environment = Object.fromEntries(chosen.variables.map((v) => [v.envVariable, valueOf(v.envVariable, v.defaultValue)]));
    update.mutate({ egg_id: chosen.id, environment }, { onSuccess: (saved) => { notifySaved(saved); onClose(); } });
  };

  return (
    <Modal opened onClose={update.isPending ? () => undefined : onClose} title={t('adminServers.changeEgg.title')} closeButtonProps={{ 'aria-label': t('common.close') }} size="lg" centered>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          <Alert color="yellow" variant="light">
            {t('adminServers.changeEgg.warning')}
          </Alert>
          <Select
            label={t('adminServers.fields.nest')}
            data={(nests.data ?? []).map((n) => ({ value: n.id, label: n.name }))}
            value={nest}
            allowDeselect={false}
            onChange={(v) => {
              setNest(v ?? '');
              setEggId('');
              setValues({});
            }}
          />
          <Select
            label={t('adminServers.fields.egg')}
            required
            data={(eggs.data ?? []).filter((e) => e.id !== server.eggId).map((e) => ({ value: e.id, label: e.name }))}
            value={eggId || null}
            onChange={(v) => {
              setEggId(v ?? '');
              setValues({});
            }}
            error={errors.egg_id}
            nothingFoundMessage={t('adminServers.fields.noEgg')}
          />
          {chosen
            ? chosen.variables.map((v) => (
                <VariableField
                  key={v.envVariable}
                  variable={v}
                  showAccess
                  value={valueOf(v.envVariable, v.defaultValue)}
                  onChange={(value) => {
                    setValues((x) => ({ ...x, [v.envVariable]: value }));
                    // A corrected value drops the complaint the last attempt left on it.
                    setLocal((x) => Object.fromEntries(Object.entries(x).filter(([field]) => field !== `environment.${v.envVariable}`)));
                  }}
                  error={errors[`environment.${v.envVariable}`]}
                />
              ))
            : null}
          {update.error && Object.keys(remote).length === 0 ? <FormError error={update.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={update.isPending}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={update.isPending} disabled={!chosen}>
              {t('adminServers.changeEgg.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};

/** The server's nest and egg, and the way to another egg. */
const EggCard = ({ server }: { server: AdminServer }) => {
  const { t } = useTranslation();
  const egg = useQuery(eggQuery(server.eggId));
  const nests = useQuery(nestsQuery);
  const [changing, setChanging] = useState(false);
  const nestName = nests.data?.find((n) => n.id === egg.data?.nestId)?.name;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="startup-egg">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Stack gap={2}>
          <Title order={3} size="h4" id="startup-egg">
            {t('adminServers.changeEgg.heading')}
          </Title>
          <Text size="sm" c="dimmed">
            {egg.data ? [nestName, egg.data.name].filter(Boolean).join(' · ') : t('common.loading')}
          </Text>
        </Stack>
        <Button variant="default" onClick={() => setChanging(true)} disabled={!egg.data}>
          {t('adminServers.changeEgg.open')}
        </Button>
      </Group>
      {changing && egg.data ? <ChangeEggDialog server={server} nestId={egg.data.nestId} onClose={() => setChanging(false)} /> : null}
    </Card>
  );
};

/** Startup command, image and every egg variable (admins edit the read-only and hidden ones too), and the egg. */
export const StartupTab = ({ server }: { server: AdminServer }) => {
  const startup = useQuery(adminStartupQuery(server.id));
  if (startup.isError) {
    return <ErrorState error={startup.error} onRetry={() => void startup.refetch()} />;
  }
  if (!startup.data) {
    return <ListSkeleton rows={4} />;
  }
  // Keyed by the saved state: after a save the form starts from what the panel now holds.
  return (
    <Stack gap="md">
      <EggCard server={server} />
      <StartupForm key={startup.dataUpdatedAt} serverId={server.id} startup={startup.data} />
    </Stack>
  );
};
