// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "./TokenLedger.sol";

/// A minimal ERC-20 (EIP-20) for the local chains: metadata fixed at deploy, the whole supply minted to
/// a list of holders, no owner and no later minting.
contract DoorwayToken is TokenLedger {
    constructor(string memory name_, string memory symbol_, uint8 decimals_, address[] memory holders, uint256 amount)
        TokenLedger(name_, symbol_, decimals_, holders, amount)
    {}

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        _transferFrom(from, to, value);
        return true;
    }
}
