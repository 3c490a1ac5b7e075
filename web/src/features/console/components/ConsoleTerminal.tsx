import '@xterm/xterm/css/xterm.css';
import { Box, Group, TextInput, useComputedColorScheme } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { FitAddon } from '@xterm/addon-fit';
import { SearchAddon } from '@xterm/addon-search';
import { WebLinksAddon } from '@xterm/addon-web-links';
import { Terminal, type ITheme } from '@xterm/xterm';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConsoleClient } from '@/features/console/console-client';

const SCROLLBACK = 5_000;

const THEMES: Record<'light' | 'dark', ITheme> = {
  dark: { background: '#1a1b1e', foreground: '#e9ecef', cursor: '#e9ecef', selectionBackground: '#495057' },
  // Light: the bright ANSI colours games like are darkened so they stay readable on a light background (WCAG AA).
  light: {
    background: '#f8f9fa',
    foreground: '#212529',
    cursor: '#212529',
    selectionBackground: '#ced4da',
    yellow: '#7a5600',
    brightYellow: '#7a5600',
    green: '#2b7a0b',
    brightGreen: '#2b7a0b',
    cyan: '#0b6e7a',
    brightCyan: '#0b6e7a',
    brightBlack: '#5c636a',
    white: '#495057',
    brightWhite: '#343a40',
  },
};

const DIM = '\x1b[2m';
const YELLOW = '\x1b[33m';
const RED = '\x1b[31m';
const RESET = '\x1b[0m';

/**
 * The console output: xterm (scrollback 5,000, links, search), read-only (commands go through the
 * command line). Writes are gathered and handed to xterm once per animation frame, so a flood of
 * lines does not freeze the tab. The terminal is never cleared: a reconnect draws a dim separator.
 */
export const ConsoleTerminal = ({ client }: { client: ConsoleClient | null }) => {
  const { t } = useTranslation();
  const scheme = useComputedColorScheme('light');
  const host = useRef<HTMLDivElement>(null);
  const termRef = useRef<Terminal | null>(null);
  const searchRef = useRef<SearchAddon | null>(null);
  const searchInput = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState('');

  useEffect(() => {
    const term = new Terminal({
      scrollback: SCROLLBACK,
      disableStdin: true,
      convertEol: true,
      cursorBlink: false,
      fontSize: 13,
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace',
      theme: THEMES[scheme],
    });
    const fit = new FitAddon();
    const search = new SearchAddon();
    term.loadAddon(fit);
    term.loadAddon(search);
    term.loadAddon(new WebLinksAddon());
    term.open(host.current!);
    // Ctrl/Cmd+F in the terminal opens our search box instead of the browser's (which cannot see the canvas rows).
    term.attachCustomKeyEventHandler((e) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'f' && e.type === 'keydown') {
        e.preventDefault();
        searchInput.current?.focus();
        return false;
      }
      return true;
    });
    const resize = new ResizeObserver(() => {
      try {
        fit.fit();
      } catch {
        // Not laid out yet.
      }
    });
    resize.observe(host.current!);
    termRef.current = term;
    searchRef.current = search;
    return () => {
      resize.disconnect();
      term.dispose();
      termRef.current = null;
      searchRef.current = null;
    };
    // The theme follows the scheme in the effect below; the terminal itself lives as long as the page.
  }, []);

  useEffect(() => {
    if (termRef.current) {
      termRef.current.options.theme = THEMES[scheme];
    }
  }, [scheme]);

  useEffect(() => {
    if (!client) {
      return undefined;
    }
    let pending: string[] = [];
    let frame: number | null = null;
    const flush = () => {
      frame = null;
      const chunk = pending.join('');
      pending = [];
      termRef.current?.write(chunk);
    };
    const write = (text: string) => {
      pending.push(text);
      frame ??= requestAnimationFrame(flush);
    };
    const off = client.on((event) => {
      switch (event.type) {
        case 'output':
          write(event.source === 'daemon' ? `${YELLOW}${event.line}${RESET}\r\n` : `${event.line}\r\n`);
          return;
        case 'daemon-error':
          write(`${RED}${event.message}${RESET}\r\n`);
          return;
        case 'install':
          write(`${YELLOW}${t(event.phase === 'started' ? 'console.terminal.installStarted' : 'console.terminal.installCompleted')}${RESET}\r\n`);
          return;
        case 'reconnected':
          write(`${DIM}──── ${t('console.terminal.reconnected')} ────${RESET}\r\n`);
          return;
        case 'state':
        case 'status':
        case 'stats':
        case 'token-refreshed':
        case 'event':
          // Shown by the page around the terminal, not in it.
          return;
      }
    });
    return () => {
      off();
      if (frame !== null) {
        cancelAnimationFrame(frame);
        flush();
      }
    };
  }, [client, t]);

  const find = (backwards: boolean) => {
    const search = searchRef.current;
    if (search && query) {
      if (backwards) {
        search.findPrevious(query);
      } else {
        search.findNext(query);
      }
    }
  };

  return (
    <Box>
      <Box
        ref={host}
        role="region"
        aria-label={t('console.terminal.label')}
        h={{ base: 320, sm: 420 }}
        p={6}
        style={{ borderRadius: 'var(--mantine-radius-md)', background: THEMES[scheme].background, overflow: 'hidden' }}
      />
      <Group justify="flex-end" mt={6}>
        <TextInput
          ref={searchInput}
          size="xs"
          w={{ base: '100%', xs: 260 }}
          leftSection={<IconSearch size={14} aria-hidden />}
          aria-label={t('console.terminal.search')}
          placeholder={t('console.terminal.searchPlaceholder')}
          value={query}
          onChange={(e) => setQuery(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              find(e.shiftKey);
            }
          }}
        />
      </Group>
    </Box>
  );
};
