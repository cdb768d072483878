/*
 * An SSDT for the audit guest (qemu -acpitable, see instantiate.tsv): the
 * Sony Programmable I/O Controller (SNY6001) of a VAIO, as much of it as
 * sony-laptop's sony_pic_add() reads before it registers the sonypi
 * compatibility node (/dev/sonypi): _STA, possible resources in one
 * dependent function (two I/O ranges: QEMU's PIIX4 makes the driver pick
 * its Type1 layout; IRQ 15 or 14, the PC's IDE lines, which no driver of
 * the audit kernel takes), and _SRS/_DIS that accept anything.  Nothing
 * answers at those ports; the driver's command waits time out harmlessly.
 * Without _CRS, PNPACPI makes no PnP device of it (it would reserve the
 * ranges).  iasl compiles it when the audit starts.
 */
DefinitionBlock ("", "SSDT", 2, "ENOTTY", "SONYSPIC", 0x00000001)
{
    Scope (\_SB)
    {
        Device (SPIC)
        {
            Name (_HID, "SNY6001")
            Method (_STA, 0, NotSerialized)
            {
                Return (0x0F)
            }
            Name (_PRS, ResourceTemplate ()
            {
                StartDependentFn (0x00, 0x00)
                {
                    IO (Decode16, 0x1080, 0x1080, 0x01, 0x20)
                    IO (Decode16, 0x10A0, 0x10A0, 0x01, 0x20)
                    IRQNoFlags () {14,15}
                }
                EndDependentFn ()
            })
            Method (_SRS, 1, NotSerialized)
            {
            }
            Method (_DIS, 0, NotSerialized)
            {
            }
        }
    }
}
