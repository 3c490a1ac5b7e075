import '@/features/files/components/files.css';
import { Alert, Anchor, Badge, Breadcrumbs, Button, Group, Modal, Paper, Skeleton, Stack, Switch, Text, Title, useComputedColorScheme } from '@mantine/core';
import { IconDeviceFloppy, IconDownload, IconSearch } from '@tabler/icons-react';
import { LanguageDescription, type LanguageSupport } from '@codemirror/language';
import { languages } from '@codemirror/language-data';
import { openSearchPanel } from '@codemirror/search';
import { EditorView, keymap } from '@codemirror/view';
import CodeMirror, { type ReactCodeMirrorRef } from '@uiw/react-codemirror';
import { useQuery } from '@tanstack/react-query';
import { Link, useBlocker } from '@tanstack/react-router';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/components/ErrorState';
import { can, downloadUrl, fileContentsQuery, filesServerQuery, useWriteFile } from '@/features/files/api';
import { darkEditorTheme } from '@/lib/editor-theme';
import { baseName, normalizePath, parentOf } from '@/features/files/paths';
import { ApiError } from '@/lib/api/api-error';
import { notify, notifyError } from '@/lib/notify';

// This module is only reached from the editor route, whose chunk the router loads on demand, so
// CodeMirror stays out of the initial bundle; each language's grammar is a further lazy chunk.

const useLanguage = (file: string): LanguageSupport | undefined => {
  const [support, setSupport] = useState<LanguageSupport>();
  useEffect(() => {
    let live = true;
    setSupport(undefined);
    const description = LanguageDescription.matchFilename(languages, baseName(file));
    void description?.load().then((loaded) => live && setSupport(loaded));
    return () => {
      live = false;
    };
  }, [file]);
  return support;
};

interface EditorPageProps {
  serverId: string;
  path: string;
  /** A file that does not exist yet: start empty, Save creates it. */
  isNew?: boolean;
}

export const EditorPage = ({ serverId, path: rawPath, isNew = false }: EditorPageProps) => {
  const { t } = useTranslation();
  const file = normalizePath(rawPath);
  const server = useQuery(filesServerQuery(serverId));
  const contents = useQuery({ ...fileContentsQuery(serverId, file), enabled: !isNew });
  const write = useWriteFile(serverId);
  const scheme = useComputedColorScheme('light');
  const language = useLanguage(file);
  const editorRef = useRef<ReactCodeMirrorRef>(null);
  const [saved, setSaved] = useState<string | undefined>(isNew ? '' : undefined);
  const [text, setText] = useState<string | undefined>(isNew ? '' : undefined);
  const [wrap, setWrap] = useState(false);
  const readOnly = server.isSuccess && !can(server.data, 'server.files.write');

  useEffect(() => {
    if (contents.data !== undefined) {
      setSaved(contents.data);
      setText(contents.data);
    }
  }, [contents.data]);

  const dirty = text !== undefined && saved !== undefined && text !== saved;
  const textRef = useRef(text);
  textRef.current = text;

  const save = () => {
    const content = textRef.current;
    if (content === undefined || readOnly || write.isPending) {
      return true;
    }
    write.mutate(
      { file, content },
      {
        onSuccess: () => {
          setSaved(content);
          notify({ color: 'teal', message: t('files.editor.saved', { name: baseName(file) }) });
        },
        onError: notifyError,
      },
    );
    return true;
  };
  const saveRef = useRef(save);
  saveRef.current = save;

  // Leaving with unsaved changes asks first: in-app navigation through the router's blocker,
  // closing or reloading the tab through beforeunload.
  const blocker = useBlocker({ shouldBlockFn: () => dirty, enableBeforeUnload: () => dirty, withResolver: true });

  const extensions = useMemo(
    () => [
      keymap.of([{ key: 'Mod-s', preventDefault: true, run: () => saveRef.current() }]),
      ...(wrap ? [EditorView.lineWrapping] : []),
      ...(language ? [language] : []),
      EditorView.contentAttributes.of({ 'aria-label': t('files.editor.label', { name: baseName(file) }) }),
    ],
    [wrap, language, t, file],
  );

  const tooLarge = contents.error instanceof ApiError && contents.error.code === 'FILE_TOO_LARGE_TO_VIEW';
  const directory = parentOf(file);
  const download = () => void downloadUrl(serverId, file).then((url) => window.location.assign(url), notifyError);

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Breadcrumbs separatorMargin={4}>
            <Anchor size="sm" className="files-link" renderRoot={(props) => <Link {...props} to="/server/$id/files" params={{ id: serverId }} search={{ path: directory }} />}>
              {directory === '/' ? t('files.root') : directory}
            </Anchor>
            <Text size="sm" aria-current="page">
              {baseName(file)}
            </Text>
          </Breadcrumbs>
          <Group gap="xs">
            <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }}>
              {baseName(file)}
            </Title>
            {dirty ? (
              <Badge color="yellow" variant="light">
                {t('files.editor.unsaved')}
              </Badge>
            ) : null}
            {readOnly ? (
              <Badge color="gray" variant="light">
                {t('files.editor.readOnly')}
              </Badge>
            ) : null}
            {isNew && saved === '' && !dirty ? (
              <Badge color="blue" variant="light">
                {t('files.editor.new')}
              </Badge>
            ) : null}
          </Group>
        </Stack>
        <Group gap="xs" wrap="wrap">
          <Switch size="sm" label={t('files.editor.wrap')} checked={wrap} onChange={(e) => setWrap(e.currentTarget.checked)} />
          <Button
            size="xs"
            variant="default"
            leftSection={<IconSearch size={16} aria-hidden />}
            onClick={() => {
              const view = editorRef.current?.view;
              if (view) {
                openSearchPanel(view);
              }
            }}
            disabled={text === undefined}
          >
            {t('files.editor.search')}
          </Button>
          {!isNew ? (
            <Button size="xs" variant="default" leftSection={<IconDownload size={16} aria-hidden />} onClick={download}>
              {t('files.action.download')}
            </Button>
          ) : null}
          {!readOnly ? (
            <Button size="xs" leftSection={<IconDeviceFloppy size={16} aria-hidden />} onClick={save} loading={write.isPending} disabled={text === undefined || (!dirty && !isNew)}>
              {t('files.editor.save')}
            </Button>
          ) : null}
        </Group>
      </Group>
      {tooLarge ? (
        <Alert color="yellow" title={t('files.editor.tooLargeTitle')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t('files.editor.tooLarge')}</Text>
            <Button size="xs" leftSection={<IconDownload size={16} aria-hidden />} onClick={download}>
              {t('files.action.download')}
            </Button>
          </Stack>
        </Alert>
      ) : contents.isError ? (
        <ErrorState error={contents.error} onRetry={() => void contents.refetch()} />
      ) : text === undefined ? (
        <Skeleton height={400} aria-label={t('common.loading')} />
      ) : (
        <Paper withBorder style={{ overflow: 'hidden' }}>
          <CodeMirror
            ref={editorRef}
            value={text}
            onChange={setText}
            height="max(320px, calc(100dvh - 260px))"
            theme={scheme === 'dark' ? darkEditorTheme : 'light'}
            readOnly={readOnly}
            extensions={extensions}
            basicSetup={{ searchKeymap: true, foldGutter: true, highlightActiveLine: true }}
            autoFocus
          />
        </Paper>
      )}
      <Text size="xs" className="files-muted">
        {t('files.editor.keys')}
      </Text>
      <Modal opened={blocker.status === 'blocked'} onClose={() => blocker.reset?.()} title={t('files.editor.leaveTitle')} centered>
        <Stack>
          <Text size="sm">{t('files.editor.leaveMessage', { name: baseName(file) })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus>
              {t('files.editor.stay')}
            </Button>
            <Button color="red" onClick={() => blocker.proceed?.()}>
              {t('files.editor.leave')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
};
