import { ActionIcon, Button, Card, Fieldset, Group, Radio, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/FormError';
import { PageSkeleton } from '@/components/Skeletons';
import { type Egg, eggQuery, useUpdateEgg } from '@/features/admin-eggs/api';
import { CodeEditor } from '@/features/admin-eggs/components/CodeEditor';
import { configText, type ImageRow, imageRows, imagesBody, jsonProblem, lines } from '@/features/admin-eggs/egg-form';
import { ApiError, fieldErrors } from '@/lib/api/api-error';
import { notify } from '@/lib/notify';

const mono = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

const ImagesEditor = ({ rows, onChange, problemRow }: { rows: ImageRow[]; onChange: (rows: ImageRow[]) => void; problemRow?: number }) => {
  const { t } = useTranslation();
  const set = (i: number, patch: Partial<ImageRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : patch.isDefault ? { ...r, isDefault: false } : r)));
  return (
    <Radio.Group
      value={String(rows.findIndex((r) => r.isDefault))}
      onChange={(value) => set(Number(value), { isDefault: true })}
      label={t('adminEggs.config.images')}
      description={t('adminEggs.config.imagesHelp')}
    >
      <Stack gap="xs" mt="xs">
        {rows.map((row, i) => (
          <Card key={i} withBorder padding="xs" aria-label={t('adminEggs.config.imageRow', { n: i + 1 })} role="group">
            <Group gap="xs" align="flex-end" wrap="wrap">
              <TextInput
                label={t('adminEggs.config.imageName')}
                value={row.name}
                onChange={(e) => set(i, { name: e.currentTarget.value })}
                error={problemRow === i}
                style={{ flex: '1 1 140px' }}
              />
              <TextInput
                label={t('adminEggs.config.image')}
                value={row.image}
                onChange={(e) => set(i, { image: e.currentTarget.value })}
                error={problemRow === i}
                styles={mono}
                style={{ flex: '3 1 240px' }}
              />
              <Group gap="xs" wrap="nowrap" pb={6}>
                <Radio value={String(i)} label={t('adminEggs.config.imageDefault')} />
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={t('adminEggs.config.imageRemove', { name: row.name || row.image || String(i + 1) })}
                  onClick={() => onChange(rows.filter((_, j) => j !== i))}
                >
                  <IconTrash size={16} aria-hidden />
                </ActionIcon>
              </Group>
            </Group>
          </Card>
        ))}
        <Group>
          <Button variant="default" size="xs" leftSection={<IconPlus size={14} aria-hidden />} onClick={() => onChange([...rows, { name: '', image: '', isDefault: rows.length === 0 }])}>
            {t('adminEggs.config.imageAdd')}
          </Button>
        </Group>
      </Stack>
    </Radio.Group>
  );
};

const ConfigForm = ({ egg }: { egg: Egg }) => {
  const { t } = useTranslation();
  const update = useUpdateEgg(egg.id);
  const [name, setName] = useState(egg.name);
  const [description, setDescription] = useState(egg.description ?? '');
  const [startup, setStartup] = useState(egg.startup);
  const [images, setImages] = useState(() => imageRows(egg.dockerImage, egg.dockerImages));
  const [features, setFeatures] = useState((egg.features ?? []).join('\n'));
  const [denylist, setDenylist] = useState(egg.fileDenylist.join('\n'));
  const [updateUrl, setUpdateUrl] = useState(egg.updateUrl ?? '');
  const [configFiles, setConfigFiles] = useState(() => configText(egg.configFiles));
  const [configStartup, setConfigStartup] = useState(() => configText(egg.configStartup));
  const [configLogs, setConfigLogs] = useState(() => configText(egg.configLogs));
  const [configStop, setConfigStop] = useState(egg.configStop ?? '');
  const [tried, setTried] = useState(false);

  const imagesResult = imagesBody(images);
  const json = {
    configFiles: jsonProblem(configFiles, true),
    configStartup: jsonProblem(configStartup, false),
    configLogs: jsonProblem(configLogs, false),
  };
  const server = update.error instanceof ApiError ? fieldErrors(update.error) : {};
  const problem = (key: string | undefined) => (key ? t(`adminEggs.problems.${key}` as 'adminEggs.problems.jsonInvalid') : undefined);
  const blocked = 'problem' in imagesResult || Object.values(json).some(Boolean) || !name.trim() || !startup.trim();

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (blocked || 'problem' in imagesResult) {
          return;
        }
        update.mutate(
          {
            name: name.trim(),
            description: description.trim() || null,
            startup,
            ...imagesResult,
            features: lines(features),
            fileDenylist: lines(denylist),
            updateUrl: updateUrl.trim() || null,
            configFiles,
            configStartup,
            configLogs,
            configStop: configStop || null,
          },
          { onSuccess: () => notify({ color: 'green', message: t('adminEggs.saved') }) },
        );
      }}
    >
      <Stack gap="lg">
        <Fieldset legend={t('adminEggs.config.details')}>
          <Stack>
            <TextInput label={t('adminEggs.config.name')} required maxLength={255} value={name} onChange={(e) => setName(e.currentTarget.value)} error={server.name} />
            <Textarea label={t('adminEggs.config.description')} autosize minRows={2} maxRows={8} value={description} onChange={(e) => setDescription(e.currentTarget.value)} error={server.description} />
            <Textarea
              label={t('adminEggs.config.startup')}
              description={t('adminEggs.config.startupHelp', { example: '{{SERVER_JARFILE}}' })}
              required
              autosize
              minRows={2}
              value={startup}
              onChange={(e) => setStartup(e.currentTarget.value)}
              error={server.startup}
              styles={mono}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Textarea label={t('adminEggs.config.features')} description={t('adminEggs.config.linesHelp')} autosize minRows={2} value={features} onChange={(e) => setFeatures(e.currentTarget.value)} styles={mono} error={server.features} />
              <Textarea label={t('adminEggs.config.denylist')} description={t('adminEggs.config.linesHelp')} autosize minRows={2} value={denylist} onChange={(e) => setDenylist(e.currentTarget.value)} styles={mono} error={server.fileDenylist} />
            </SimpleGrid>
            <TextInput label={t('adminEggs.config.updateUrl')} type="url" value={updateUrl} onChange={(e) => setUpdateUrl(e.currentTarget.value)} error={server.updateUrl} />
          </Stack>
        </Fieldset>
        <Fieldset legend={t('adminEggs.config.imagesLegend')}>
          <ImagesEditor rows={images} onChange={setImages} problemRow={tried && 'problem' in imagesResult ? imagesResult.row : undefined} />
          {'problem' in imagesResult && (tried || images.length === 0) ? (
            <Text size="sm" c="red" role="alert" mt="xs">
              {problem(imagesResult.problem)}
            </Text>
          ) : null}
          {server.dockerImages || server.dockerImage ? (
            <Text size="sm" c="red" mt="xs">
              {server.dockerImages ?? server.dockerImage}
            </Text>
          ) : null}
        </Fieldset>
        <Fieldset legend={t('adminEggs.config.configLegend')}>
          <Stack>
            <CodeEditor label={t('adminEggs.config.configFiles')} description={t('adminEggs.config.configFilesHelp')} language="JSON" value={configFiles} onChange={setConfigFiles} error={problem(json.configFiles) ?? server.configFiles} />
            <CodeEditor label={t('adminEggs.config.configStartup')} description={t('adminEggs.config.configStartupHelp')} language="JSON" value={configStartup} onChange={setConfigStartup} error={problem(json.configStartup) ?? server.configStartup} />
            <CodeEditor label={t('adminEggs.config.configLogs')} language="JSON" value={configLogs} onChange={setConfigLogs} error={problem(json.configLogs) ?? server.configLogs} minHeight="60px" />
            <TextInput label={t('adminEggs.config.configStop')} description={t('adminEggs.config.configStopHelp')} maxLength={191} value={configStop} onChange={(e) => setConfigStop(e.currentTarget.value)} styles={mono} error={server.configStop} />
          </Stack>
        </Fieldset>
        {update.error && Object.keys(server).length === 0 ? <FormError error={update.error} /> : null}
        <Group justify="flex-end">
          <Button type="submit" loading={update.isPending}>
            {t('adminEggs.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
};

/** /admin/eggs/$eggId: name, description, startup, images and the daemon's config (JSON in editors). */
export const EggConfigPage = ({ eggId }: { eggId: string }) => {
  const egg = useQuery(eggQuery(eggId));
  // The layout shows the egg's error and loading states; this waits for the same query.
  return egg.data ? <ConfigForm egg={egg.data} /> : <PageSkeleton />;
};
