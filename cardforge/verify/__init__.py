"""Printed-output check: prove, card by card, that a built PDF shows what the data says.

`cardforge build` runs it on every PDF it has just written; `cardforge check --printed
OLD.pdf` runs it on an earlier build against the data as it is now.  For each card face (and
board, token, reference sheet) recorded in the PDF's manifest (`<pdf>` -> `<pdf
stem>.manifest.json`; trims in mm from the page's lower left) it checks:

* the text printed inside the piece's trim box is the text its *current* data gives when its
  layout's templates are evaluated again, frame by frame (where lines were broken does not
  matter), so an edited number on one card is named, with the words that differ;
* no glyph lies outside the trim box of its piece (nothing cut off);
* each frame draws the icons the data asks for (damage-track boxes = damage_spaces,
  difficulty stars, inline dice such as :d6-4:);
* each card is printed as many times as its quantity says;
* every font in the PDF is embedded.

Diagnostics point at the card field the differing frame is made from (card.pos('damage_spaces')).

Modules: `pdfread` (a small content-stream interpreter over pypdf), `verifier` (the
comparison, face by face), `printed` (`check --printed`).  The PDF is opened with pypdf (pure Python) to get at its objects; the page content is read
here by a small content-stream interpreter that follows the text and transformation matrices,
the clipping path (a piece is drawn clipped to its bleed box, which tells what belongs to it)
and form XObjects (the icons): all that reportlab's output uses.  It takes about 2 ms per
page of cards.  When a build checks what it has just written, the manifest was made
from the same data in the same run, so it stands for the data (the templates are not
evaluated twice); `check --printed` evaluates them again, since the data may have changed.
"""
from .printed import PrintedUsageError, check_printed  # noqa: F401
from .verifier import Verifier, verify_outputs  # noqa: F401
