import { Alert, Button, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/FormError';
import { PageSkeleton } from '@/components/Skeletons';
import { type Egg, eggQuery, useUpdateEgg } from '@/features/admin-eggs/api';
import { CodeEditor } from '@/features/admin-eggs/components/CodeEditor';
import { ApiError, fieldErrors } from '@/lib/api/api-error';
import { notify } from '@/lib/notify';

const mono = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

const ScriptForm = ({ egg }: { egg: Egg }) => {
  const { t } = useTranslation();
  const update = useUpdateEgg(egg.id);
  const [container, setContainer] = useState(egg.scriptContainer);
  const [entry, setEntry] = useState(egg.scriptEntry);
  const [script, setScript] = useState(egg.scriptInstall ?? '');
  const server = update.error instanceof ApiError ? fieldErrors(update.error) : {};
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        update.mutate(
          { scriptContainer: container.trim(), scriptEntry: entry.trim(), scriptInstall: script === '' ? null : script },
          { onSuccess: () => notify({ color: 'green', message: t('adminEggs.saved') }) },
        );
      }}
    >
      <Stack>
        {egg.copyScriptFrom ? (
          <Alert color="blue" variant="light" p="sm">
            <Text size="sm">{t('adminEggs.script.copied')}</Text>
          </Alert>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t('adminEggs.script.container')} description={t('adminEggs.script.containerHelp')} required value={container} onChange={(e) => setContainer(e.currentTarget.value)} styles={mono} error={server.scriptContainer} />
          <TextInput label={t('adminEggs.script.entry')} description={t('adminEggs.script.entryHelp')} required value={entry} onChange={(e) => setEntry(e.currentTarget.value)} styles={mono} error={server.scriptEntry} />
        </SimpleGrid>
        <CodeEditor label={t('adminEggs.script.script')} description={t('adminEggs.script.scriptHelp')} language="Shell" value={script} onChange={setScript} error={server.scriptInstall} minHeight="240px" maxHeight="max(320px, calc(100dvh - 360px))" />
        {update.error && Object.keys(server).length === 0 ? <FormError error={update.error} /> : null}
        <Group justify="flex-end">
          <Button type="submit" loading={update.isPending} disabled={!container.trim() || !entry.trim()}>
            {t('adminEggs.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
};

/** /admin/eggs/$eggId/script: the install container, its entrypoint and the script (shell, in an editor). */
export const EggScriptPage = ({ eggId }: { eggId: string }) => {
  const egg = useQuery(eggQuery(eggId));
  return egg.data ? <ScriptForm egg={egg.data} /> : <PageSkeleton />;
};
