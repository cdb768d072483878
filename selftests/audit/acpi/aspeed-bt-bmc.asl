/*
 * An SSDT for the audit guest (qemu -acpitable, see instantiate.tsv): the
 * BMC side of an ASPEED iBT interface, which ARM BMCs describe in their
 * device tree.  PRP0001 with a "compatible" property in _DSD makes ACPI
 * match the driver's of_match_table (bt-bmc, built with COMPILE_TEST).
 * _CRS gives bt_bmc_probe() the one thing it maps, a 32-byte register
 * window; 0x50000000 is guest-physical space that nothing uses with the
 * audit's 1 GB of RAM (PCI BARs sit near 4 GB).  No interrupt: the driver
 * falls back to its poll timer.  Nothing answers there: reads give 0
 * (no request pending), writes are dropped.
 */
DefinitionBlock ("", "SSDT", 2, "ENOTTY", "BTBMC", 0x00000001)
{
    Scope (\_SB)
    {
        Device (IBT0)
        {
            Name (_HID, "PRP0001")
            Name (_UID, 0x00)
            Name (_DSD, Package ()
            {
                ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
                Package ()
                {
                    Package () { "compatible", "aspeed,ast2400-ibt-bmc" }
                }
            })
            Name (_CRS, ResourceTemplate ()
            {
                Memory32Fixed (ReadWrite, 0x50000000, 0x00000020)
            })
            Method (_STA, 0, NotSerialized)
            {
                Return (0x0F)
            }
        }
    }
}
