# excerpt in the shape of tools/crypto/ccp/test_dbc.py; the newer fixture tree has no copy
class TestInvalidIoctls(unittest.TestCase):
    def test_invalid_nonce_ioctl(self) -> None:
        INVALID1 = ioctl.IOWR(ord("D"), 0x01, invalid_param)
        with self.assertRaises(OSError) as error:
            fcntl.ioctl(self.d, INVALID1, self.data, True)
        self.assertEqual(error.exception.errno, 22)
