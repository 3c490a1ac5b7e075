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
    const root = viewport.current;
    const list = root?.querySelector('[role="tablist"]');
    if (!root || !list) {
      return;
    }
    // Sideways only (scrollIntoView would move the page too), and again whenever the bar's width changes:
    // the tabs widen once the web font has loaded.
    const show = () => {
      const tab = root.querySelector('[role="tab"][aria-selected="true"]');
      if (!tab) {
        return;
      }
      const bar = root.getBoundingClientRect();
      const box = tab.getBoundingClientRect();
      if (box.left < bar.left) {
        root.scrollLeft -= bar.left - box.left;
      } else if (box.right > bar.right) {
        root.scrollLeft += box.right - bar.right;
      }
    };
    show();
    const observer = new ResizeObserver(show);
    observer.observe(list);
    observer.observe(root);
    return () => observer.disconnect();
  }, [active]);
  return (
    <ScrollArea type="never" viewportRef={viewport}>
      <Tabs.List style={{ flexWrap: 'nowrap' }} aria-label={label}>
        {children}
      </Tabs.List>
    </ScrollArea>
  );
};
