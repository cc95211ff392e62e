import { css } from 'styled-components';

/** Out of sight but still read by screen readers and reachable by the keyboard. */
export const visuallyHidden = css`
  position: absolute;
  width: 1px;
  height: 1px;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
`;
