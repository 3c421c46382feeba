import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import type { CitationFormat } from '@radar/shared';
import { lazy, Suspense, useId, useRef, useState } from 'react';
import { HoverTooltip } from '@/components/actions/hover-tooltip';

/**
 * The menu (MUI's Menu, Popover and Modal: about 110 kB of script) loads at the first opening: /papers
 * then loads and evaluates none of it before its first card.
 */
const CitationFormatMenu = lazy(async () => ({ default: (await import('./citation-format-menu')).CitationFormatMenu }));

/**
 * 导出: a menu of the citation formats (BibTeX, RIS, CSL-JSON). An icon button on a paper card, a text
 * button (`label`) on /library; choosing a format calls `onSelect`, which downloads the file.
 */
export function CitationExportMenu(props: {
  /** The button's text (a text button) or its tooltip and accessible name (an icon button). */
  label: string;
  variant: 'icon' | 'text';
  disabled?: boolean;
  testId: string;
  onSelect: (format: CitationFormat) => void;
}) {
  const anchor = useRef<HTMLButtonElement>(null);
  const [isOpen, setOpen] = useState(false);
  // The menu mounts at its first opening and stays (so it closes with its transition): a list of 20 cards
  // renders no closed menus.
  const [hasOpened, setHasOpened] = useState(false);
  const menuId = useId();
  const buttonProps = {
    ref: anchor,
    disabled: props.disabled,
    'aria-haspopup': 'menu' as const,
    'aria-expanded': isOpen,
    'aria-controls': isOpen ? menuId : undefined,
    'data-testid': props.testId,
    onClick: () => {
      setHasOpened(true);
      setOpen(true);
    },
  };
  return (
    <>
      {props.variant === 'icon' ? (
        <HoverTooltip title={props.label}>
          <IconButton aria-label={props.label} {...buttonProps}>
            <FileDownloadOutlinedIcon />
          </IconButton>
        </HoverTooltip>
      ) : (
        <Button size="small" variant="outlined" startIcon={<FileDownloadOutlinedIcon />} {...buttonProps}>
          {props.label}
        </Button>
      )}
      {hasOpened ? (
        <Suspense fallback={null}>
          <CitationFormatMenu
            id={menuId}
            anchorEl={anchor.current}
            open={isOpen}
            onClose={() => setOpen(false)}
            onSelect={(format) => {
              setOpen(false);
              props.onSelect(format);
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
