"""The PDF/X parts of a print shop's CMYK PDF: the output intent with the embedded profile, the
GTS keys, Trapped, XMP for PDF/X-4, and the file saved at the PDF version its PDF/X part asks for.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from .printcolor import PDFX, PrintColor


def add_pdfx(pdf, color: PrintColor, title: str) -> None:
    """The PDF/X parts: output intent with the embedded profile, the GTS keys, Trapped, and the
    XMP metadata PDF/X-4 requires."""
    import pikepdf
    from pikepdf import Name
    profile = color.profile
    icc = pdf.make_stream(profile.path.read_bytes(), N=4, Alternate=Name.DeviceCMYK)
    intent = pdf.make_indirect(pikepdf.Dictionary(
        Type=Name.OutputIntent, S=Name.GTS_PDFX, OutputConditionIdentifier=profile.condition,
        OutputCondition=profile.description, RegistryName="http://www.color.org",
        Info=f"{profile.description} (cardforge {profile.name}.icc)", DestOutputProfile=icc))
    pdf.Root.OutputIntents = pikepdf.Array([intent])
    info = pdf.docinfo
    info.Title = title
    info.Trapped = Name("/False")
    if "/CreationDate" in info:
        info.ModDate = info.CreationDate
    version, conformance, _, _ = PDFX[color.pdfx]
    info.GTS_PDFXVersion = version
    if conformance:
        info.GTS_PDFXConformance = conformance
    if color.pdfx == "X-4":
        with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
            meta.register_xml_namespace("http://www.npes.org/pdfx/ns/id/", "pdfxid")
            meta["pdfxid:GTS_PDFXVersion"] = "PDF/X-4"
            meta["dc:title"] = title
            meta["pdf:Trapped"] = "False"
            meta["pdf:Producer"] = str(info.get("/Producer", "cardforge"))
            meta["xmp:CreatorTool"] = "cardforge"
            stamp = _xmp_date(str(info.get("/CreationDate", "D:20000101000000")))
            meta["xmp:CreateDate"] = stamp
            meta["xmp:ModifyDate"] = stamp
            meta["xmp:MetadataDate"] = stamp
            digest = hashlib.sha256(title.encode("utf-8")).hexdigest()
            meta["xmpMM:DocumentID"] = f"uuid:{digest[:8]}-{digest[8:12]}-{digest[12:16]}-{digest[16:20]}-{digest[20:32]}"
            meta["xmpMM:VersionID"] = "1"
            meta["xmpMM:RenditionClass"] = "default"


def _xmp_date(pdf_date: str) -> str:
    d = pdf_date[2:] if pdf_date.startswith("D:") else pdf_date
    d = (d + "00000000000000")[:14]
    return f"{d[0:4]}-{d[4:6]}-{d[6:8]}T{d[8:10]}:{d[10:12]}:{d[12:14]}Z"


def save(pdf, target: Path, color: PrintColor) -> None:
    import pikepdf
    # PDF/X-1a:2001 is PDF 1.3, X-1a:2003 PDF 1.4, X-4 PDF 1.6.  The trailer ID is a digest of the content.
    pdf.save(target, force_version=PDFX[color.pdfx][2], deterministic_id=True,
             compress_streams=True, object_stream_mode=pikepdf.ObjectStreamMode.disable,
             stream_decode_level=pikepdf.StreamDecodeLevel.generalized)


