import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { CITATION_FORMATS, type CitationFormat } from '@radar/shared';
import { CITATION_FORMAT_LABELS } from '@/api/citation-export';

/** The open menu of CitationExportMenu, loaded at the first opening (citation-export-menu.tsx says why). */
export function CitationFormatMenu(props: {
  id: string;
  anchorEl: HTMLElement | null;
  open: boolean;
  onClose: () => void;
  onSelect: (format: CitationFormat) => void;
}) {
  return (
    <Menu id={props.id} anchorEl={props.anchorEl} open={props.open} onClose={props.onClose}>
      {CITATION_FORMATS.map((format) => (
        <MenuItem key={format} onClick={() => props.onSelect(format)}>
          {CITATION_FORMAT_LABELS[format]}
        </MenuItem>
      ))}
    </Menu>
  );
}
