import { ScrollArea, Tabs } from '@mantine/core';
import { useEffect, useRef, type ReactNode } from 'react';

interface ScrollingTabListProps {
  /** The tab bar's accessible name. */
  label: string;
  /** The selected tab's value: when it changes, the bar scrolls it into view. */
  active: string;
  children: ReactNode;
}

/**
 * A tab bar (inside Mantine `Tabs`) on one line that scrolls sideways on a narrow screen, and keeps the
 * selected tab in view: on a phone, a page opened by a link shows which tab it is.
 */
export const ScrollingTabList = ({ label, active, children }: ScrollingTabListProps) => {
  const viewport = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const tab = viewport.current?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]');
    tab?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [active]);
  return (
    <ScrollArea type="never" viewportRef={viewport}>
      <Tabs.List style={{ flexWrap: 'nowrap' }} aria-label={label}>
        {children}
      </Tabs.List>
    </ScrollArea>
  );
};
